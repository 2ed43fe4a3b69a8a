import { Layer } from "effect"
import { hostname } from "node:os"
import { BaseLive } from "../../../shared/db/BaseLive.js"
import { runMain } from "../../../shared/runMain.js"
import { PipelineServices } from "../../PipelineLive.js"
import { MaterializerLive } from "./Materializer.js"

/** A materializer on its own (`npm run start:materializer`): run more of them to spread the work. */
runMain(Layer.launch(MaterializerLive(`${hostname()}-${process.pid}`).pipe(Layer.provide(PipelineServices), Layer.provide(BaseLive))))
