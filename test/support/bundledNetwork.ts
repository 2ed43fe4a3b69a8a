import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { makeBuiltinEngine } from "../../shared/routing/engine/builtin/BuiltinEngine.js"
import { RoadGraph } from "../../shared/routing/engine/builtin/RoadGraph.js"
import { readTruckSpeedTables } from "../../shared/routing/engine/builtin/truckSpeeds.js"
import { RoadNetwork } from "../../shared/routing/network/NetworkFile.js"
import type { EngineRequest, LatLng } from "../../shared/routing/engine/RoutingEngine.js"

/** The bundled network, its graph and the built-in engine over it, loaded once per test file. */
export const file = (p: string) => fileURLToPath(new URL(p, import.meta.url))
export const net = RoadNetwork.decode(readFileSync(file("../../shared/routing/data/us-ca.network.json.gz")))
export const graph = new RoadGraph(net)
export const ROUTING_DATA = file("../../shared/routing/data/tables")
export const speedTables = readTruckSpeedTables(ROUTING_DATA)
export const engine = makeBuiltinEngine(net, graph, speedTables)

/** A plain truck request between two points: no avoidances, no alternatives. */
export const request = (from: LatLng, to: LatLng, over: Partial<EngineRequest> = {}): EngineRequest => ({
  points: [from, to],
  truck: { height_m: 4.1, weight_t: 36, hazmat: false },
  avoid: { toll_road: false, ferry: false, tunnel: false },
  alternatives: 0,
  exclusions: [],
  ...over
})
/** The engine's first route for a request. */
export const route = (req: EngineRequest) => Effect.runPromise(engine.route(req)).then((a) => a.routes[0])

export const CHICAGO = { lat: 41.8781, lng: -87.6298 }
export const TORONTO = { lat: 43.6532, lng: -79.3832 }
