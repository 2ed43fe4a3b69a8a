import { Effect, Layer } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { builtinEngineLayer } from "./builtin/BuiltinEngine.js"

/** The engine ROUTING_ENGINE names, from the settings. */
export const RoutingEngineLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (c) => builtinEngineLayer(c.routingNetworkFile, c.routingPreload))
)
