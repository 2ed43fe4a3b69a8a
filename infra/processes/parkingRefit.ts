/**
 * One fit of the truck-parking forecaster (`npm run refit:parking`): the stored readings, with
 * the bundled history while the store is young, into a stored model. The service runs it as a
 * child process on its schedule, so the seconds of arithmetic never hold up ingest or the API.
 * Exit 0 when a model was stored or another process was already fitting; 1 on failure.
 */
import { Effect, Layer, Logger, LogLevel } from "effect"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { DatabaseLive } from "../../shared/db/Database.js"
import { refitParkingModel } from "../../shared/parking/refit.js"
import { migrate } from "../db/BaseLive.js"
import { BUNDLED_PARKING_HISTORY } from "../parking/bundledHistory.js"

const layer = DatabaseLive.pipe(Layer.provideMerge(AppConfig.layer))

const program = Effect.gen(function* () {
  yield* migrate
  const done = yield* refitParkingModel(BUNDLED_PARKING_HISTORY)
  const peak = Math.round(process.resourceUsage().maxRSS / 1024)
  // one line a scheduler (or a person) reads
  console.log(
    JSON.stringify(
      done === undefined
        ? { fitted: false, reason: "another process is fitting", peak_rss_mb: peak }
        : { fitted: true, ...done, fitMs: Math.round(done.fitMs), peak_rss_mb: peak }
    )
  )
}).pipe(Effect.provide(layer), Logger.withMinimumLogLevel(LogLevel.Info))

Effect.runPromise(program).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e))
  process.exit(1)
})
