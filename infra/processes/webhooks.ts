import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../db/BaseLive.js"
import { TracingLive } from "../../shared/observability/Tracing.js"
import { runMain } from "../../shared/runMain.js"
import { MetricsPublisherLive } from "../../pipeline/metrics/MetricsPublisher.js"
import { PipelineServices } from "../../pipeline/PipelineLive.js"
import { WebhooksLive } from "../../pipeline/stages/webhooks/WebhookStage.js"
import { RouteMonitorLive } from "../../pipeline/stages/routeMonitor/RouteMonitorStage.js"

/** The webhook and route monitor stages on their own (`npm run start:webhooks`): run several to spread deliveries. */
const consumer = `${hostname()}-${process.pid}`
runMain(
  Layer.launch(
    Layer.mergeAll(WebhooksLive(consumer), RouteMonitorLive(consumer), MetricsPublisherLive(consumer)).pipe(
      Layer.provide(PipelineServices),
      Layer.provide(BaseLive),
      Layer.provide(TracingLive("webhooks"))
    )
  )
)
