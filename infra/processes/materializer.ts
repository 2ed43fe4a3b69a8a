import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../db/BaseLive.js"
import { TracingLive } from "../../shared/observability/Tracing.js"
import { runMain } from "../../shared/runMain.js"
import { PipelineServices } from "../../pipeline/PipelineLive.js"
import { MetricsPublisherLive } from "../../pipeline/metrics/MetricsPublisher.js"
import { MaterializerLive } from "../../pipeline/stages/materialize/Materializer.js"

/** A materializer on its own (`npm run start:materializer`): run more of them to spread the work. */
const consumer = `${hostname()}-${process.pid}`
runMain(
  Layer.launch(
    Layer.merge(MaterializerLive(consumer), MetricsPublisherLive(consumer)).pipe(
      Layer.provide(PipelineServices),
      Layer.provide(BaseLive),
      Layer.provide(TracingLive("materializer"))
    )
  )
)
