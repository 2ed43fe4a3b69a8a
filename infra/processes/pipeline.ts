import { Effect, Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../db/BaseLive.js"
import { TracingLive } from "../../shared/observability/Tracing.js"
import { pipelineProcessesConfig } from "../../shared/config/AppConfig.js"
import { closeReserveMs, runMain, shutdownTimeoutMs } from "../../shared/runMain.js"
import { MetricsPublisherLive } from "../../pipeline/metrics/MetricsPublisher.js"
import { PipelineLive, PipelineServices, PollerRoleLive } from "../../pipeline/PipelineLive.js"
import { MaterializerLive } from "../../pipeline/stages/materialize/Materializer.js"
import { CatalogueLive } from "../catalogue/CatalogueLive.js"
import { ParkingRefitLive } from "../parking/ParkingRefitLive.js"
import { FOLLOWING_STAGES, RoleProcessLive } from "../supervise/RoleProcesses.js"

/**
 * `npm run start:pipeline`: the poller and every stage. On a machine with more than one core
 * (PIPELINE_PROCESSES) the stages that follow a write (analytics, webhooks, the route monitor)
 * run in a child process, kept running by this one, while the poll and the materializer stay
 * here: what makes a change queryable and what tells of it use a core each.
 */
const consumer = `${hostname()}-${process.pid}`

// the child's whole stop fits in this process's drain, with half a second to spare
const childStopMs = Math.max(1000, shutdownTimeoutMs - closeReserveMs - 500)
const Writer = Layer.mergeAll(
  PollerRoleLive,
  MaterializerLive(consumer),
  MetricsPublisherLive(consumer),
  RoleProcessLive(FOLLOWING_STAGES, process.env, childStopMs)
).pipe(Layer.provideMerge(PipelineServices))

// one process keeps the parking forecaster refitted itself; split, its child does (infra/processes/stages.ts)
const main = (mode: "one" | "split") =>
  (mode === "split" ? Writer : Layer.merge(PipelineLive(consumer), ParkingRefitLive)).pipe(
    Layer.provide(CatalogueLive({ startSimulator: true })),
    Layer.provide(BaseLive),
    Layer.provide(TracingLive("pipeline"))
  )

runMain(Layer.launch(Layer.unwrapEffect(Effect.map(pipelineProcessesConfig, main))))
