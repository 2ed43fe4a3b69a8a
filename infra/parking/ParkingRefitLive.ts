import { spawn } from "node:child_process"
import { setPriority } from "node:os"
import { Config, Duration, Effect, Layer, Schedule } from "effect"
import { latestModelInfo } from "../../shared/parking/modelStore.js"

const REFIT_SCRIPT = new URL("../processes/parkingRefit.ts", import.meta.url).pathname
/** A fit of the bundled month takes seconds; one that runs this long is stuck. */
const FIT_TIMEOUT_MS = 15 * 60_000

/** Runs one refit as a child process; its last stdout line is its result. */
const runRefit = Effect.async<string, Error>((resume) => {
  const child = spawn(process.execPath, ["--import", "tsx", REFIT_SCRIPT], {
    stdio: ["ignore", "pipe", "pipe"],
    env: process.env
  })
  // the fit yields the CPU to ingest and the API (bench:parking, docs/BENCHMARKS.md)
  try {
    if (child.pid !== undefined) setPriority(child.pid, 19)
  } catch {
    // a system that refuses leaves the fit at normal priority
  }
  let out = ""
  let err = ""
  child.stdout.on("data", (d: Buffer) => (out += d.toString()))
  child.stderr.on("data", (d: Buffer) => (err += d.toString()))
  const timer = setTimeout(() => child.kill("SIGKILL"), FIT_TIMEOUT_MS)
  child.on("close", (code) => {
    clearTimeout(timer)
    if (code === 0) resume(Effect.succeed(out.trim().split("\n").pop() ?? ""))
    else resume(Effect.fail(new Error(`parking refit exited ${code}: ${err.trim().slice(-500)}`)))
  })
  return Effect.sync(() => child.kill("SIGKILL"))
})

/**
 * Keeps the truck-parking forecaster current: at start when no model is stored, then whenever
 * the newest is older than PARKING_REFIT_HOURS (default 24), checked every 10 minutes. The fit
 * runs in a child process at the lowest CPU priority; a failure is logged and tried again at the
 * next check.
 */
export const ParkingRefitLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const everyHours = yield* Config.number("PARKING_REFIT_HOURS").pipe(Config.withDefault(24))
    const check = Effect.gen(function* () {
      const latest = yield* latestModelInfo
      const age = latest === undefined ? Infinity : Date.now() - Date.parse(latest.fitted_at)
      if (age < everyHours * 3_600_000) return
      yield* Effect.logInfo(
        latest === undefined ? "parking forecaster: no model yet, fitting one" : "parking forecaster: refitting"
      )
      const result = yield* runRefit
      yield* Effect.logInfo(`parking forecaster: ${result}`)
    }).pipe(
      Effect.catchAll((e) => Effect.logWarning(`parking forecaster: ${e instanceof Error ? e.message : String(e)}`)),
      Effect.withSpan("parking.refit")
    )
    yield* Effect.forkScoped(check.pipe(Effect.repeat(Schedule.spaced(Duration.minutes(10)))))
  })
)
