import { Effect, Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../db/BaseLive.js"
import { TracingLive } from "../../shared/observability/Tracing.js"
import { pipelineProcessesConfig } from "../../shared/config/AppConfig.js"
import { runMain, shutdownTimeoutMs } from "../../shared/runMain.js"
import { PipelineLive } from "../../pipeline/PipelineLive.js"
import { catalogueSimulatorUrl, CatalogueLive } from "../catalogue/CatalogueLive.js"
import { PIPELINE_ROLES, RoleProcessesLive } from "../supervise/RoleProcesses.js"

/**
 * `npm run start:pipeline`: the poller and every stage. On a machine with more than one core
 * (PIPELINE_PROCESSES) each role runs as a child process of this one, which migrates, starts the
 * bundled simulator when there is no catalogue, and keeps the children running.
 */
const OneProcess = PipelineLive(`${hostname()}-${process.pid}`).pipe(
  Layer.provide(CatalogueLive({ startSimulator: true })),
  Layer.provide(BaseLive),
  Layer.provide(TracingLive("pipeline"))
)

// a child's stop fits inside this process's, with room left to close
const childStopMs = Math.max(1000, shutdownTimeoutMs - Math.min(3000, Math.floor(shutdownTimeoutMs / 4)) - 500)
const RoleProcesses = Layer.unwrapScoped(
  Effect.map(catalogueSimulatorUrl({ startSimulator: true }), (simulatorUrl) =>
    RoleProcessesLive(
      PIPELINE_ROLES,
      simulatorUrl ? { ...process.env, SIMULATOR_URL: simulatorUrl } : process.env,
      childStopMs
    )
  )
).pipe(Layer.provide(BaseLive))

runMain(
  Layer.launch(
    Layer.unwrapEffect(Effect.map(pipelineProcessesConfig, (mode) => (mode === "roles" ? RoleProcesses : OneProcess)))
  )
)
