import { simplify } from "@turf/turf"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { RoadNetwork } from "../shared/routing/network/NetworkFile.js"
import { cachedAsset } from "./cachedAsset.js"

/**
 * The live map's basemap, made from data the project bundles (no tile server can be reached):
 * state and province polygons, lakes and places from Natural Earth, highways from the routing
 * network, as one GeoJSON file with a `layer` property on every feature. Coordinates are cut
 * to 3 decimals (about 100 m) and lines simplified: it is a backdrop at state scale, not a
 * survey. Made once per input (cachedAsset), so `npm start` stays fast.
 */
const root = fileURLToPath(new URL("../", import.meta.url))
export const BASEMAP_INPUTS = {
  states: join(root, "shared/geo/data/admin1_us_ca_50m.geojson"),
  places: join(root, "infra/data/places_us_ca_50m.geojson"),
  lakes: join(root, "infra/data/lakes_us_ca_50m.geojson"),
  network: join(root, "shared/routing/data/us-ca.network.json.gz")
}
/** Bump when the output's shape changes, so a cached file from an older builder is not reused. */
const VERSION = 6

/** Road classes drawn, widest first. `primary` would add 8 MB (54,000 short lines) for little at state scale. */
export const BASEMAP_ROAD_CLASSES = ["motorway", "trunk"] as const

type Position = [number, number]
const round = (v: number) => Math.round(v * 1000) / 1000
const roundLine = (pts: ReadonlyArray<Position>) => {
  const out: Array<Position> = []
  for (const [x, y] of pts) {
    const p: Position = [round(x), round(y)]
    const last = out[out.length - 1]
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p)
  }
  return out
}

/** A polygon or multipolygon simplified (≈ 0.01°, 1 km) and cut to 3 decimals, as one MultiPolygon. */
const simplePolygons = (geometry: any): Array<Array<Array<Position>>> => {
  const g = simplify({ type: "Feature", geometry, properties: {} } as any, {
    tolerance: 0.01,
    highQuality: false
  }).geometry as any
  const polys: Array<Array<Array<Position>>> = g.type === "Polygon" ? [g.coordinates] : g.coordinates
  return polys.map((rings) => rings.map(roundLine).filter((r) => r.length >= 4)).filter((rings) => rings.length > 0)
}

const stateFeatures = (file: string) => {
  const fc = JSON.parse(readFileSync(file, "utf8")) as {
    features: Array<{ geometry: any; properties: Record<string, string> }>
  }
  return fc.features.map((f) => ({
    type: "Feature",
    properties: { layer: "state", code: f.properties.postal, name: f.properties.name, country: f.properties.country },
    geometry: { type: "MultiPolygon", coordinates: simplePolygons(f.geometry) }
  }))
}

/** Lakes, drawn as water over the land (the Great Lakes among them). */
const lakeFeatures = (file: string) => {
  const fc = JSON.parse(readFileSync(file, "utf8")) as {
    features: Array<{ geometry: any; properties: { name?: string | null } }>
  }
  return fc.features
    .map((f) => ({
      type: "Feature",
      // Natural Earth abbreviates two of the Great Lakes ("L. Erie")
      properties: { layer: "lake", name: (f.properties.name ?? "").replace(/^L\. /, "Lake ") },
      geometry: { type: "MultiPolygon", coordinates: simplePolygons(f.geometry) }
    }))
    .filter((f) => f.geometry.coordinates.length > 0)
}

const placeFeatures = (file: string) => {
  const fc = JSON.parse(readFileSync(file, "utf8")) as {
    features: Array<{
      geometry: { coordinates: Position }
      properties: { name: string; admin1: string; country: string; pop_max: number }
    }>
  }
  return fc.features
    .map((f) => ({
      type: "Feature",
      properties: { layer: "place", name: f.properties.name, region: f.properties.admin1, pop: f.properties.pop_max },
      geometry: { type: "Point", coordinates: roundLine([f.geometry.coordinates])[0] }
    }))
    .sort((a, b) => b.properties.pop - a.properties.pop)
}

/**
 * Highways by class. Edges end at every junction, so they are first stitched into long lines
 * through nodes where only two edges of the class meet; then simplification has something to
 * remove (≈ 0.01°, 1 km, under a pixel at state scale).
 */
const roadFeatures = (net: RoadNetwork) => {
  const out: Array<unknown> = []
  for (const cls of BASEMAP_ROAD_CLASSES) {
    const edges: Array<number> = []
    for (let e = 0; e < net.edgeCount; e++) {
      const p = net.props[net.edgeProp[e]]
      if (p.class === cls && !p.ferry) edges.push(e)
    }
    const atNode = new Map<number, Array<number>>()
    for (const e of edges) {
      for (const n of [net.edgeFrom[e], net.edgeTo[e]]) {
        const list = atNode.get(n)
        if (list) list.push(e)
        else atNode.set(n, [e])
      }
    }
    const used = new Set<number>()
    // walks from edge e out of node n, appending shapes while the chain passes through degree-2 nodes
    const extend = (line: Array<Position>, e: number, n: number) => {
      let [edge, node] = [e, n]
      for (;;) {
        const next = atNode.get(node)
        if (!next || next.length !== 2) return
        const other = next[0] === edge ? next[1] : next[0]
        if (used.has(other)) return
        used.add(other)
        const shape = net.shape(other)
        const forward = net.edgeFrom[other] === node
        const pts = forward ? shape : shape.reverse()
        line.push(...pts.slice(1))
        edge = other
        node = forward ? net.edgeTo[other] : net.edgeFrom[other]
      }
    }
    for (const e of edges) {
      if (used.has(e)) continue
      used.add(e)
      const tail = net.shape(e)
      extend(tail, e, net.edgeTo[e])
      const head: Array<Position> = [[tail[0][0], tail[0][1]]]
      extend(head, e, net.edgeFrom[e])
      const line = [...head.slice(1).reverse(), ...tail]
      const simple = (
        simplify({ type: "Feature", geometry: { type: "LineString", coordinates: line }, properties: {} } as any, {
          tolerance: 0.01
        }).geometry as any
      ).coordinates
      const coords = roundLine(simple)
      if (coords.length < 2) continue
      out.push({
        type: "Feature",
        properties: { layer: "road", class: cls },
        geometry: { type: "LineString", coordinates: coords }
      })
    }
  }
  return out
}

export interface BuiltBasemap {
  /** file name under assets/ */
  readonly name: string
  readonly bytes: number
  readonly cached: boolean
}

/** Writes `basemap-<hash>.json` into `assetsDir`. */
export const buildBasemap = (assetsDir: string, network: () => RoadNetwork): BuiltBasemap =>
  cachedAsset(assetsDir, "basemap", VERSION, Object.values(BASEMAP_INPUTS), () => ({
    type: "FeatureCollection",
    features: [
      ...stateFeatures(BASEMAP_INPUTS.states),
      ...lakeFeatures(BASEMAP_INPUTS.lakes),
      ...roadFeatures(network()),
      ...placeFeatures(BASEMAP_INPUTS.places)
    ]
  }))
