import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../shared/db/BaseLive.js"
import { runMain } from "../shared/runMain.js"
import { PipelineLive } from "./PipelineLive.js"
import { CatalogueLive } from "./poll/CatalogueLive.js"

const Main = PipelineLive(`${hostname()}-${process.pid}`).pipe(Layer.provide(CatalogueLive({ startSimulator: true })), Layer.provide(BaseLive))
runMain(Layer.launch(Main))
