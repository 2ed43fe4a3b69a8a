import { Effect, Layer } from "effect"
import { RoutingConfig } from "../RoutingConfig.js"
import { builtinEngineLayer } from "./builtin/BuiltinEngine.js"
import { valhallaEngineLayer } from "./valhalla/ValhallaEngine.js"

/** The engine ROUTING_ENGINE names, from the settings; Valhalla needs VALHALLA_URL. */
export const RoutingEngineLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const c = yield* RoutingConfig
    if (c.routingEngine === "builtin")
      return builtinEngineLayer(c.routingNetworkFile, c.routingPreload, c.routingDataDir)
    if (c.valhallaUrl === undefined)
      return yield* Effect.dieMessage("ROUTING_ENGINE=valhalla needs VALHALLA_URL (e.g. http://valhalla:8002)")
    return valhallaEngineLayer(c.valhallaUrl)
  })
)
