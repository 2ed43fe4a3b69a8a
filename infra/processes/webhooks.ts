import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../db/BaseLive.js"
import { TracingLive } from "../../shared/observability/Tracing.js"
import { runMain } from "../../shared/runMain.js"
import { MetricsPublisherLive } from "../../pipeline/metrics/MetricsPublisher.js"
import { PipelineServices } from "../../pipeline/PipelineLive.js"
import { WebhooksLive } from "../../pipeline/stages/webhooks/WebhookStage.js"

/** The webhook stage on its own (`npm run start:webhooks`): run several to spread deliveries. */
const consumer = `${hostname()}-${process.pid}`
runMain(Layer.launch(Layer.merge(WebhooksLive(consumer), MetricsPublisherLive(consumer)).pipe(Layer.provide(PipelineServices), Layer.provide(BaseLive), Layer.provide(TracingLive("webhooks")))))
