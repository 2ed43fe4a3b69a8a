import { Layer } from "effect"
import { BaseLive } from "../db/BaseLive.js"
import { runMain } from "../../shared/runMain.js"
import { ApiServerLive } from "../../api/server.js"

runMain(Layer.launch(ApiServerLive().pipe(Layer.provide(BaseLive))))
