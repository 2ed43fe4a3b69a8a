import { Cause, Effect, Exit, Fiber, Logger, LogLevel } from "effect"

const LEVELS: Record<string, LogLevel.LogLevel> = {
  trace: LogLevel.Trace, debug: LogLevel.Debug, info: LogLevel.Info, warn: LogLevel.Warning,
  warning: LogLevel.Warning, error: LogLevel.Error, none: LogLevel.None
}

/**
 * Runs a program until SIGINT/SIGTERM, then interrupts it so scoped resources close
 * (connections, HTTP servers, consumer fibers). The only place a process enters Effect.
 */
export const runMain = <E>(program: Effect.Effect<never, E>) => {
  const level = LEVELS[(process.env.LOG_LEVEL ?? "info").toLowerCase()] ?? LogLevel.Info
  const fiber = Effect.runFork(program.pipe(Logger.withMinimumLogLevel(level), Effect.provide(Logger.logFmt)))
  const stop = () => Effect.runFork(Fiber.interrupt(fiber))
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
  fiber.addObserver((exit) => {
    if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)) {
      console.error(Cause.pretty(exit.cause))
      process.exit(1)
    }
    process.exit(0)
  })
}
