import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../../../shared/db/BaseLive.js"
import { runMain } from "../../../shared/runMain.js"
import { MetricsPublisherLive } from "../../metrics/MetricsPublisher.js"
import { PipelineServices } from "../../PipelineLive.js"
import { WebhooksLive } from "./WebhookStage.js"

/** The webhook stage on its own (`npm run start:webhooks`): run several to spread deliveries. */
const consumer = `${hostname()}-${process.pid}`
runMain(Layer.launch(Layer.merge(WebhooksLive(consumer), MetricsPublisherLive(consumer)).pipe(Layer.provide(PipelineServices), Layer.provide(BaseLive))))
