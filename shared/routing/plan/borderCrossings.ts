import { join } from "node:path"
import { existsSync } from "node:fs"
import { haversineM } from "../../geo/distance.js"
import { readCsv } from "../network/csv.js"

export interface NamedCrossing {
  readonly name: string
  readonly lat: number
  readonly lng: number
}

/** A crossing of the table lies this near the point where the route's region changes. */
const NAME_REACH_M = 8_000

/** The named ports of entry of a routing data dir's border_crossings.csv (none when it has no such file). */
export const readCrossings = (dir: string): ReadonlyArray<NamedCrossing> => {
  const file = join(dir, "border_crossings.csv")
  return existsSync(file) ? readCsv(file).map((r) => ({ name: r.name, lat: Number(r.lat), lng: Number(r.lng) })) : []
}

/** The crossing's name: the nearest port of entry of the table, else the roads either side. */
export const crossingName = (table: ReadonlyArray<NamedCrossing>, lat: number, lng: number, road: string) => {
  let best: NamedCrossing | undefined
  let bestM = NAME_REACH_M
  for (const c of table) {
    const m = haversineM(lat, lng, c.lat, c.lng)
    if (m <= bestM) [best, bestM] = [c, m]
  }
  return best?.name ?? `US–Canada border on ${road}`
}
