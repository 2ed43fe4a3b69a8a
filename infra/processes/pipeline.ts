import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../db/BaseLive.js"
import { TracingLive } from "../../shared/observability/Tracing.js"
import { runMain } from "../../shared/runMain.js"
import { PipelineLive } from "../../pipeline/PipelineLive.js"
import { CatalogueLive } from "../catalogue/CatalogueLive.js"

const Main = PipelineLive(`${hostname()}-${process.pid}`).pipe(
  Layer.provide(CatalogueLive({ startSimulator: true })),
  Layer.provide(BaseLive),
  Layer.provide(TracingLive("pipeline"))
)
runMain(Layer.launch(Main))
