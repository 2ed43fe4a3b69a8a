import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { RoutingConfig } from "../RoutingConfig.js"
import { StateBoundaries } from "../../geo/stateMileage.js"
import { TollTable } from "../tolls/tolls.js"
import { readCrossings } from "./borderCrossings.js"

/** Reference files routing reads, each once per process on first use. */
const memo = <A>(load: (path: string) => A) => {
  const cache = new Map<string, A>()
  return (path: string) => {
    let a = cache.get(path)
    if (a === undefined) {
      a = load(path)
      cache.set(path, a)
    }
    return a
  }
}

const boundaries = memo(
  (file) => new StateBoundaries(JSON.parse(readFileSync(file, "utf8")), (p) => String(p.postal ?? p.code ?? ""))
)
const tolls = memo((dir) => new TollTable(dir))

/** State and province polygons of BOUNDARIES_FILE. */
export const stateBoundaries = Effect.map(RoutingConfig, (c) => boundaries(c.boundariesFile))
/** Toll systems, fares and exchange rates of ROUTING_DATA_DIR. */
export const tollTable = Effect.map(RoutingConfig, (c) => tolls(c.routingDataDir))

const crossings = memo(readCrossings)
/** The named US–Canada ports of entry of ROUTING_DATA_DIR. */
export const borderCrossings = Effect.map(RoutingConfig, (c) => crossings(c.routingDataDir))
