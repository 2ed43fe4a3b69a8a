import type { MileageRow, StateBoundaries } from "../../geo/stateMileage.js"
import type { EngineRoute, RegionLength } from "../engine/RoutingEngine.js"

const M_PER_MI = 1609.344

/**
 * A route's length per state or province, with its tolled part: the engine's own figures where it
 * knows which region every road lies in (the bundled network does: each Travel Mapping route
 * belongs to one region), else the route line cut by the state polygons, tolled parts from the
 * tolled sections. The polygons are simplified (1:50m), so they are the fallback only.
 */
export const regionLengths = (
  r: Pick<EngineRoute, "coordinates" | "distance_m" | "sections" | "regions">,
  polygons: () => StateBoundaries
): ReadonlyArray<RegionLength> => {
  if (r.regions) return r.regions
  const b = polygons()
  const toll = new Map<string, number>()
  for (const s of r.sections) {
    if (s.toll === null) continue
    for (const row of b.split(r.coordinates.slice(s.from_index, s.to_index + 1), s.distance_m))
      toll.set(row.jurisdiction, (toll.get(row.jurisdiction) ?? 0) + row.distance_m)
  }
  return b
    .split(r.coordinates, r.distance_m)
    .map((row) => ({ region: row.jurisdiction, distance_m: row.distance_m, toll_m: toll.get(row.jurisdiction) ?? 0 }))
}

const longestFirst = (a: RegionLength, b: RegionLength) =>
  b.distance_m - a.distance_m || a.region.localeCompare(b.region)

/** `mileage_by_state` (SPEC §2.10): one entry per state or province touched, longest first. */
export const mileageByState = (regions: ReadonlyArray<RegionLength>): Array<MileageRow> =>
  [...regions].sort(longestFirst).map((r) => ({
    jurisdiction: r.region,
    distance_m: Math.round(r.distance_m * 10) / 10,
    distance_mi: Math.round((r.distance_m * 100) / M_PER_MI) / 100
  }))

/**
 * The IFTA-style table of a route: state, miles, km, toll miles, longest first. `toll_m` unknown
 * (a route saved before its regions were kept) leaves that cell empty rather than claiming 0.
 */
export const mileageCsv = (regions: ReadonlyArray<Omit<RegionLength, "toll_m"> & { readonly toll_m: number | null }>) =>
  [
    "state,miles,km,toll_miles",
    ...[...regions]
      .sort((a, b) => b.distance_m - a.distance_m || a.region.localeCompare(b.region))
      .map((r) =>
        [
          r.region,
          (r.distance_m / M_PER_MI).toFixed(2),
          (r.distance_m / 1000).toFixed(3),
          r.toll_m === null ? "" : (r.toll_m / M_PER_MI).toFixed(2)
        ].join(",")
      )
  ].join("\r\n") + "\r\n"
