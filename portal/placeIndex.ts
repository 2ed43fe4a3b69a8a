import { readFileSync } from "node:fs"
import type { RoadNetwork } from "../shared/routing/network/NetworkFile.js"
import { BASEMAP_INPUTS } from "./basemap.js"
import { cachedAsset } from "./cachedAsset.js"

/**
 * What the route planner's origin and destination boxes search: the bundled places (cities) and
 * the routing network's named junctions, where motorways meet other numbered routes ("I-55 &
 * I-80, IL"). Made once per input (cachedAsset) into one compact JSON:
 * `{cities: [[name, region, lat, lng, pop]], junctions: [[name, region, lat, lng]]}`.
 */
const VERSION = 1

const round = (v: number) => Math.round(v * 10_000) / 10_000

const junctions = (net: RoadNetwork) => {
  // the route sets meeting at each node, from motorway and trunk edges with a ref
  const at = new Map<number, { refs: Set<string>; sets: Set<string>; motorway: boolean; region: string }>()
  for (let e = 0; e < net.edgeCount; e++) {
    const p = net.props[net.edgeProp[e]]
    if ((p.class !== "motorway" && p.class !== "trunk") || !p.ref) continue
    for (const n of [net.edgeFrom[e], net.edgeTo[e]]) {
      const j = at.get(n) ?? {
        refs: new Set<string>(),
        sets: new Set<string>(),
        motorway: false,
        region: p.region ?? ""
      }
      for (const r of p.ref.split(";")) if (!/ (BL|BS|Fut|Trk|Alt|Bus)$/.test(r)) j.refs.add(r)
      j.sets.add(p.ref)
      j.motorway ||= p.class === "motorway"
      at.set(n, j)
    }
  }
  const out: Array<[string, string, number, number]> = []
  const seen = new Set<string>()
  for (const [node, j] of at) {
    // an interchange: different routes meet (not one route's concurrency carried on)
    if (!j.motorway || j.sets.size < 2 || j.refs.size < 2 || j.refs.size > 4) continue
    const name = [...j.refs].sort((a, b) => a.localeCompare(b, "en", { numeric: true })).join(" & ")
    const key = `${name}|${j.region}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push([name, j.region, round(net.nodeLat[node]), round(net.nodeLng[node])])
  }
  return out
}

const cities = (file: string) => {
  const fc = JSON.parse(readFileSync(file, "utf8")) as {
    features: Array<{
      geometry: { coordinates: [number, number] }
      properties: { name: string; admin1: string; pop_max: number }
    }>
  }
  return fc.features.map(
    (f) =>
      [
        f.properties.name,
        f.properties.admin1,
        round(f.geometry.coordinates[1]),
        round(f.geometry.coordinates[0]),
        f.properties.pop_max
      ] as const
  )
}

/** Writes `places-<hash>.json` into `assetsDir`. */
export const buildPlaceIndex = (assetsDir: string, network: () => RoadNetwork) =>
  cachedAsset(assetsDir, "places", VERSION, [BASEMAP_INPUTS.places, BASEMAP_INPUTS.network], () => ({
    cities: cities(BASEMAP_INPUTS.places),
    junctions: junctions(network())
  }))
