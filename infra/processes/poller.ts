import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../db/BaseLive.js"
import { TracingLive } from "../../shared/observability/Tracing.js"
import { runMain } from "../../shared/runMain.js"
import { MetricsPublisherLive } from "../../pipeline/metrics/MetricsPublisher.js"
import { PipelineServices, PollerRoleLive } from "../../pipeline/PipelineLive.js"
import { CatalogueLive } from "../catalogue/CatalogueLive.js"

/**
 * The poller on its own (`npm run start:poller`): fetch, decode, diff and commit changes to the
 * stream, for the stages running as processes of their own (start:materializer, start:analytics,
 * start:webhooks), with the orphan sweep, stream trimming and coverage. Pollers share sources
 * through their leases: run one per machine.
 */
const consumer = `${hostname()}-${process.pid}`
runMain(
  Layer.launch(
    Layer.merge(PollerRoleLive, MetricsPublisherLive(consumer)).pipe(
      Layer.provide(PipelineServices),
      Layer.provide(CatalogueLive({ startSimulator: false })),
      Layer.provide(BaseLive),
      Layer.provide(TracingLive("poller"))
    )
  )
)
