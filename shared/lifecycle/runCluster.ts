import { Effect, Logger } from "effect"
import cluster, { type Worker } from "node:cluster"

export interface ClusterOptions {
  /** worker processes to keep running */
  readonly workers: number
  /** what the log lines call them ("api") */
  readonly name: string
  /** how long a stop may take before the workers are killed (SHUTDOWN_TIMEOUT_MS) */
  readonly shutdownTimeoutMs: number
  /** Node flags for the workers besides the primary's own (V8's heap is sized once, at a process's start) */
  readonly workerArgs?: ReadonlyArray<string>
}

/** The primary runs no Effect program; its few lines go through the same logger as the workers'. */
const log = (level: "info" | "warn" | "error", message: string) =>
  Effect.runSync(
    (level === "info"
      ? Effect.logInfo(message)
      : level === "warn"
        ? Effect.logWarning(message)
        : Effect.logError(message)
    ).pipe(Effect.provide(Logger.logFmt))
  )

/**
 * The primary of a node:cluster: it forks `workers` copies of this same script (each runs the
 * real program and accepts on the shared listening socket), starts a replacement when one dies (after 0.25 s,
 * doubling while they keep dying, at most 30 s), and on SIGTERM or SIGINT asks every worker to
 * drain and waits for them: exit 0 when all stopped cleanly, 1 otherwise or when
 * `shutdownTimeoutMs` passed (each worker's own stop is given half a second less). A worker whose primary is gone
 * exits by itself (Node
 * closes its IPC channel), so no worker outlives a killed primary.
 */
export const runClusterPrimary = (options: ClusterOptions) => {
  // the workers accept from the shared socket themselves: with the primary handing connections
  // round (Node's default on Linux), one handed to a worker that dies before taking it stays open
  // in the primary, unanswered, until the client gives up (seen: 300 s after a kill -9)
  cluster.schedulingPolicy = cluster.SCHED_NONE
  if (options.workerArgs?.length) cluster.setupPrimary({ execArgv: [...process.execArgv, ...options.workerArgs] })
  let stopping = false
  let unclean = false
  const slots = new Map<number, number>()
  const deaths: Array<number> = []
  // a worker's whole stop fits in the role's: it gets the same budget less half a second
  const workerTimeoutMs = Math.max(1000, options.shutdownTimeoutMs - 500)
  const fork = (slot: number) => {
    const w = cluster.fork({ CLUSTER_WORKER: String(slot), SHUTDOWN_TIMEOUT_MS: String(workerTimeoutMs) })
    slots.set(w.id, slot)
  }
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined)

  cluster.on("exit", (worker, code, signal) => {
    const slot = slots.get(worker.id) ?? 0
    slots.delete(worker.id)
    if (stopping) {
      // a worker still starting has no handler yet and dies of the SIGTERM itself: it held no work
      if (code !== 0 && signal !== "SIGTERM") {
        unclean = true
        log(
          "warn",
          `${options.name} worker ${slot} (pid ${worker.process.pid}) stopped uncleanly (${signal ?? `code ${code}`})`
        )
      }
      if (live().length === 0) {
        log("info", `${options.name}: every worker stopped`)
        process.exit(unclean ? 1 : 0)
      }
      return
    }
    // how often workers died lately: a monotonic duration of this process, never compared with data
    const now = performance.now()
    deaths.push(now)
    while (deaths.length > 0 && deaths[0] < now - 60_000) deaths.shift()
    const delay = Math.min(30_000, 250 * 2 ** (deaths.length - 1))
    log(
      "warn",
      `${options.name} worker ${slot} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); starting another in ${delay} ms`
    )
    setTimeout(() => {
      if (!stopping) fork(slot)
    }, delay)
  })

  const stop = (sig: string) => {
    if (stopping) {
      log("warn", `${options.name}: second ${sig}; killing the workers`)
      for (const w of live()) w.process.kill("SIGKILL")
      process.exit(1)
    }
    stopping = true
    log("info", `${options.name}: ${sig}; draining ${live().length} workers`)
    for (const w of live()) w.process.kill("SIGTERM")
    if (live().length === 0) process.exit(0)
    setTimeout(() => {
      log("error", `${options.name}: workers still running after ${options.shutdownTimeoutMs} ms; killing them`)
      for (const w of live()) w.process.kill("SIGKILL")
      process.exit(1)
    }, options.shutdownTimeoutMs).unref()
  }
  process.on("SIGTERM", () => stop("SIGTERM"))
  process.on("SIGINT", () => stop("SIGINT"))

  for (let slot = 1; slot <= options.workers; slot++) fork(slot)
  log("info", `${options.name}: ${options.workers} workers starting (pid ${process.pid} is the primary)`)
}

/**
 * In a worker: the signals it obeys. Ctrl-C reaches the whole process group; only the primary's SIGTERM starts a
 * worker's drain.
 */
export const workerSignals = (): ReadonlyArray<NodeJS.Signals> =>
  cluster.isWorker ? ["SIGTERM"] : ["SIGTERM", "SIGINT"]
