import { Layer } from "effect"
import { BaseLive } from "../shared/db/BaseLive.js"
import { runMain } from "../shared/runMain.js"
import { ApiServerLive } from "./server.js"

runMain(Layer.launch(ApiServerLive().pipe(Layer.provide(BaseLive))))
