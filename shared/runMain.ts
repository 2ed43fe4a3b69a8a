import { Cause, Config, Effect, Exit, Fiber, Logger, LogLevel } from "effect"
import { allDrained, requestDrain, stillDraining } from "./lifecycle/Drain.js"
import { limitHeapGrowth } from "./lifecycle/heapGrowth.js"
import { LogLinesLive } from "./observability/logLines.js"

const LEVELS: Record<string, LogLevel.LogLevel> = {
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  none: LogLevel.None
}

/** How long a stop may take before the process is interrupted anyway (SHUTDOWN_TIMEOUT_MS, default 10 s). */
export const shutdownTimeoutMs = Effect.runSync(
  Config.integer("SHUTDOWN_TIMEOUT_MS").pipe(
    Config.withDefault(10_000),
    Effect.orElseSucceed(() => 10_000)
  )
)

/** Of a stop's SHUTDOWN_TIMEOUT_MS, what is kept for closing connections after the drain (a quarter, at most 3 s). */
export const closeReserveMs = Math.min(3000, Math.floor(shutdownTimeoutMs / 4))

/**
 * Runs a program until SIGTERM/SIGINT. The first signal drains: every part stops taking work and
 * finishes or hands back what it holds (shared/lifecycle/Drain.ts); then the program is
 * interrupted so scoped resources close. Draining and closing together take at most
 * SHUTDOWN_TIMEOUT_MS, whatever is down. Exit 0 when every part drained and closed, 1 when the
 * time ran out (what was still held is reclaimed by other consumers). A second signal stops at
 * once. The only place a process enters Effect.
 */
export const runMain = <E>(
  program: Effect.Effect<never, E>,
  options: { readonly signals?: ReadonlyArray<NodeJS.Signals>; readonly heapGrowingPercent?: number } = {}
) => {
  limitHeapGrowth(process.env, options.heapGrowingPercent)
  const level = LEVELS[(process.env.LOG_LEVEL ?? "info").toLowerCase()] ?? LogLevel.Info
  // a role run by a supervisor (infra/supervise/RoleProcesses.ts) names itself on every line
  const role = process.env.PROCESS_ROLE
  const withLogs = <A, E2>(e: Effect.Effect<A, E2>) =>
    e.pipe(
      role ? Effect.annotateLogs("role", role) : (x) => x,
      Logger.withMinimumLogLevel(level),
      Effect.provide(LogLinesLive)
    )
  const fiber = Effect.runFork(withLogs(program))
  let forced = false
  let stopping = false
  const stop = () => {
    if (stopping) {
      Effect.runFork(Fiber.interrupt(fiber))
      return
    }
    stopping = true
    // the whole stop, closing included, fits in SHUTDOWN_TIMEOUT_MS: a resource whose server has gone
    // away (a Redis that never answers QUIT) cannot keep the process alive past it
    setTimeout(() => {
      console.error(
        JSON.stringify({
          level: "error",
          message: `stopping: still closing after ${shutdownTimeoutMs} ms; exiting now`
        })
      )
      process.exit(1)
    }, shutdownTimeoutMs).unref()
    Effect.runFork(
      withLogs(
        Effect.gen(function* () {
          yield* Effect.logInfo(
            `stopping: draining (at most ${shutdownTimeoutMs - closeReserveMs} ms, then ${closeReserveMs} ms to close)`
          )
          yield* requestDrain
          const drained = yield* Effect.timeout(allDrained, shutdownTimeoutMs - closeReserveMs).pipe(
            Effect.as(true),
            Effect.orElseSucceed(() => false)
          )
          if (drained) yield* Effect.logInfo("stopping: every part drained")
          else {
            forced = true
            yield* Effect.logWarning(
              `stopping: ${shutdownTimeoutMs - closeReserveMs} ms passed with ${stillDraining().join(", ")} still working; interrupting`
            )
          }
          yield* Fiber.interrupt(fiber)
        })
      )
    )
  }
  // a supervised role stops on its supervisor's SIGTERM, or when its supervisor is gone
  const supervised = process.env.SUPERVISED === "1"
  const signals = options.signals ?? (supervised ? ["SIGTERM"] : ["SIGINT", "SIGTERM"])
  for (const sig of signals) process.on(sig, stop)
  if (supervised && process.send !== undefined) {
    // gone already while this process was still loading its modules
    if (!process.connected) stop()
    else process.once("disconnect", stop)
  }
  // a cluster worker or a supervised role leaves Ctrl-C to its primary, which forwards SIGTERM once
  if (!signals.includes("SIGINT")) process.on("SIGINT", () => undefined)
  fiber.addObserver((exit) => {
    if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)) {
      console.error(Cause.pretty(exit.cause))
      process.exit(1)
    }
    process.exit(forced ? 1 : 0)
  })
}
