import { Effect, Layer } from "effect"
import { hostname } from "node:os"
import { ApiServerLive } from "../api/server.js"
import { PipelineLive } from "../pipeline/PipelineLive.js"
import { CatalogueLive } from "./catalogue/CatalogueLive.js"
import { BaseLive } from "./db/BaseLive.js"
import { runMain } from "../shared/runMain.js"
import { TracingLive } from "../shared/observability/Tracing.js"
import { ParkingRefitLive } from "./parking/ParkingRefitLive.js"

/**
 * `npm start`: migrations, the pipeline, the API, the parking forecaster's refits (in a child process)
 * and — when no SOURCES_FILE is set — the bundled upstream simulator, in one process.
 */
const consumer = `${hostname()}-${process.pid}`
const Main = Layer.mergeAll(ApiServerLive(), PipelineLive(consumer), ParkingRefitLive).pipe(
  Layer.provide(CatalogueLive({ startSimulator: true })),
  Layer.provide(BaseLive),
  Layer.provide(TracingLive("service")),
  Layer.tap(() => Effect.logInfo("road-data service started"))
)

runMain(Layer.launch(Main))
