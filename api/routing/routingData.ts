import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { StateBoundaries } from "../../shared/geo/stateMileage.js"
import { TollTable } from "../../shared/routing/tolls.js"

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

const boundaries = memo((file) => new StateBoundaries(JSON.parse(readFileSync(file, "utf8")), (p) => String(p.postal ?? p.code ?? "")))
const tolls = memo((dir) => new TollTable(dir))

/** State and province polygons of BOUNDARIES_FILE. */
export const stateBoundaries = Effect.map(AppConfig, (c) => boundaries(c.boundariesFile))
/** Toll systems, fares and exchange rates of ROUTING_DATA_DIR. */
export const tollTable = Effect.map(AppConfig, (c) => tolls(c.routingDataDir))
