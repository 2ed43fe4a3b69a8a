import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../db/BaseLive.js"
import { TracingLive } from "../../shared/observability/Tracing.js"
import { runMain } from "../../shared/runMain.js"
import { MetricsPublisherLive } from "../../pipeline/metrics/MetricsPublisher.js"
import { PipelineServices } from "../../pipeline/PipelineLive.js"
import { AnalyticsLive } from "../../pipeline/stages/analytics/AnalyticsStage.js"
import { ParkingRefitLive } from "../parking/ParkingRefitLive.js"

/**
 * The analytics stage on its own (`npm run start:analytics`): run several to spread the work. It
 * also keeps the parking forecaster refitted (one fit at a time across processes).
 */
const consumer = `${hostname()}-${process.pid}`
runMain(
  Layer.launch(
    Layer.mergeAll(AnalyticsLive(consumer), MetricsPublisherLive(consumer), ParkingRefitLive).pipe(
      Layer.provide(PipelineServices),
      Layer.provide(BaseLive),
      Layer.provide(TracingLive("analytics"))
    )
  )
)
