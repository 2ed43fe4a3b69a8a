import { bbox, lineIntersect, lineString } from "@turf/turf"
import { haversineM } from "../../shared/geo/distance.js"
import { FREE_ROAD, type RoadLine } from "../../shared/routing/network/RoadLine.js"

/** The part of a Travel Mapping route these links read. */
export interface WaypointRoute {
  readonly root: string
  /** "I-95", "US1" (a banner apart) */
  readonly route: string
  /** "Alt", "Bus", "Trk"…, or null */
  readonly banner?: string | null
  readonly region: string
  readonly points: ReadonlyArray<readonly [string, number, number]>
}

/**
 * Each side's waypoint must lie this close to the crossing (the Thruway's exit 39 lies 2.0 km from its I-690
 * crossing).
 */
export const LINK_MAX_M = 2500
/**
 * A freeway that ends this close to another freeway's waypoint (I-376 ends 711 m from the Turnpike's exit 57) joins
 * it there.
 */
export const END_LINK_MAX_M = 1000
/** Two routes that share a waypoint this close to where their lines cross already meet there. */
const MET_WITHIN_M = 3000
/** Ramps, a toll plaza, a connector road: timed as a slow drive over the link's length. */
export const LINK_SPEED_KPH = 40

/** degrees added around each route's box before pairs are compared */
const PAD = 0.015

/** Coordinates as buildNetwork nodes them (1e-6 degree): the link's ends must be the routes' own vertices. */
export const key = (lat: number, lng: number) => `${Math.round(lat * 1e6)}:${Math.round(lng * 1e6)}`

/**
 * A waypoint at a state, province or national border ("OH/PA", "USA/CAN"): the route goes on in the next region's
 * file.
 */
const BORDER = /^[A-Z]{2,3}\/[A-Z]{2,3}$/

/** Hidden shaping points (`+X…`) are no place to leave a road. */
export const visible = (label: string) => !label.startsWith("+")

/**
 * A two-way link between two routes' waypoints (through `via`), timed at LINK_SPEED_KPH; a ramp, so no junction delay
 * of its own.
 */
export const linkLine = (
  a: readonly [string, number, number],
  b: readonly [string, number, number],
  via: ReadonlyArray<readonly [number, number]>,
  region: string,
  name: string
): RoadLine => ({
  coordinates: [[a[2], a[1]], ...via, [b[2], b[1]]],
  props: { ...FREE_ROAD, class: "motorway", speed_kph: LINK_SPEED_KPH, region, name }
})

/**
 * Links between freeways whose lines cross without a shared waypoint nearby. Travel Mapping joins
 * routes by giving them identical coordinates where they meet, but where a ticketed toll road
 * meets another freeway through a toll plaza and a connector (the Thruway at I-81 and I-481 in
 * Syracuse, the Ohio Turnpike at I-75, the Pennsylvania Turnpike at I-79 and I-83) the two
 * waypoints of the interchange sit hundreds of metres apart, and the network had no junction:
 * the Thruway ran 296 km from Schenectady to exit 44 with no way on or off. Two freeways that
 * cross nearly always have an interchange; each such crossing gets a two-way link from the
 * nearest visible waypoint of one route, through the crossing, to the other's, timed at
 * LINK_SPEED_KPH. Where a crossing has no interchange (a rare freeway overpass), the link costs
 * the drive over its length, and a route that takes it is wrong by at most that stretch.
 */
export const interchangeLinks = (freeways: ReadonlyArray<WaypointRoute>): Array<RoadLine> => {
  const routes = freeways.filter((r) => r.points.length >= 2)
  const keys = routes.map((r) => new Set(r.points.map((p) => key(p[1], p[2]))))
  const lines = routes.map((r) => lineString(r.points.map((p) => [p[2], p[1]])))
  const boxes = lines.map((l) => bbox(l))
  const nearest = (r: WaypointRoute, lat: number, lng: number, maxM = LINK_MAX_M) => {
    let best: readonly [string, number, number] | undefined
    let bestM = maxM
    for (const p of r.points) {
      if (!visible(p[0])) continue
      const m = haversineM(lat, lng, p[1], p[2])
      if (m <= bestM) [best, bestM] = [p, m]
    }
    return best
  }
  const out: Array<RoadLine> = []
  const made = new Set<string>()
  const link = (
    i: number,
    j: number,
    pa: readonly [string, number, number],
    pb: readonly [string, number, number],
    via: ReadonlyArray<readonly [number, number]>
  ) => {
    const [ka, kb] = [key(pa[1], pa[2]), key(pb[1], pb[2])]
    const ends = [ka, kb].sort().join("|")
    if (ka === kb || made.has(ends)) return
    made.add(ends)
    out.push(linkLine(pa, pb, via, routes[i].region, `${routes[i].route} / ${routes[j].route} interchange`))
  }
  for (let i = 0; i < routes.length; i++) {
    for (let j = i + 1; j < routes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]]
      // boxes widened by about a kilometre, for a freeway that ends just short of another
      if (
        routes[i].root === routes[j].root ||
        a[0] > b[2] + PAD ||
        b[0] > a[2] + PAD ||
        a[1] > b[3] + PAD ||
        b[1] > a[3] + PAD
      )
        continue
      const shared = routes[i].points.filter((p) => keys[j].has(key(p[1], p[2])))
      for (const x of lineIntersect(lines[i], lines[j]).features) {
        const [lng, lat] = x.geometry.coordinates
        if (shared.some((p) => haversineM(lat, lng, p[1], p[2]) <= MET_WITHIN_M)) continue
        const [pa, pb] = [nearest(routes[i], lat, lng), nearest(routes[j], lat, lng)]
        if (pa && pb) link(i, j, pa, pb, [[lng, lat]])
      }
      // a freeway that ends at the other without crossing it: its end point to the other's nearest waypoint
      for (const [e, o] of [
        [i, j],
        [j, i]
      ] as const) {
        for (const end of [routes[e].points[0], routes[e].points[routes[e].points.length - 1]]) {
          if (!visible(end[0]) || shared.some((p) => haversineM(end[1], end[2], p[1], p[2]) <= MET_WITHIN_M)) continue
          // a border point is no end: it joins only the same road's file on the other side, where the two files
          // disagree
          if (BORDER.test(end[0]) && routes[o].route !== routes[e].route) continue
          const other = nearest(routes[o], end[1], end[2], END_LINK_MAX_M)
          if (other) link(e, o, end, other, [])
        }
      }
    }
  }
  return out
}
