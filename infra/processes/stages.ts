import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../db/BaseLive.js"
import { TracingLive } from "../../shared/observability/Tracing.js"
import { runMain } from "../../shared/runMain.js"
import { MetricsPublisherLive } from "../../pipeline/metrics/MetricsPublisher.js"
import { FollowingStagesLive, PipelineServices } from "../../pipeline/PipelineLive.js"
import { ParkingRefitLive } from "../parking/ParkingRefitLive.js"

/**
 * Analytics, webhooks and the route monitor in one process, with the parking forecaster's refits:
 * what `start:pipeline` runs as its child on a machine with more than one core.
 */
const consumer = `${hostname()}-${process.pid}`
runMain(
  Layer.launch(
    Layer.mergeAll(FollowingStagesLive(consumer), MetricsPublisherLive(consumer), ParkingRefitLive).pipe(
      Layer.provide(PipelineServices),
      Layer.provide(BaseLive),
      Layer.provide(TracingLive("stages"))
    )
  )
)
