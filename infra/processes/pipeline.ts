import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../db/BaseLive.js"
import { runMain } from "../../shared/runMain.js"
import { PipelineLive } from "../../pipeline/PipelineLive.js"
import { CatalogueLive } from "../catalogue/CatalogueLive.js"

const Main = PipelineLive(`${hostname()}-${process.pid}`).pipe(Layer.provide(CatalogueLive({ startSimulator: true })), Layer.provide(BaseLive))
runMain(Layer.launch(Main))
