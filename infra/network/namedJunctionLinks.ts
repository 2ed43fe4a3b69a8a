import KDBush from "kdbush"
import { around } from "geokdbush"
import { haversineM } from "../../shared/geo/distance.js"
import type { RoadLine } from "../../shared/routing/network/RoadLine.js"
import { key, linkLine, visible, type WaypointRoute } from "./interchangeLinks.js"

/** A waypoint that names another route is joined to that route's nearest waypoint within this distance. */
export const NAMED_LINK_MAX_M = 1000
/** …unless the two routes already share a waypoint this close to it. */
const MET_WITHIN_M = 3000
/** An exit number ("66", "*265B"): the other side of a freeway interchange. */
const EXIT = /^\*?\d+[A-Z]?$/

/**
 * The routes a waypoint label names, by Travel Mapping's labelling rules: `I-95(66)` (I-95 at its
 * exit 66), `US1/9`, `I-64/77`, `NY5_E`, `*US63` (an old label), `US20Bus`. Parentheses and a
 * `_suffix` are dropped; a bare number after a slash takes the prefix before it.
 */
export const namedRoutes = (label: string): Array<string> => {
  const plain = label
    .replace(/^\*/, "")
    .replace(/\(.*?\)/g, "")
    .replace(/_[A-Za-z0-9]+$/, "")
  const out: Array<string> = []
  let prefix: string | undefined
  for (const part of plain.split("/")) {
    const m = /^([A-Z]+-?)(\d+[A-Z]?)(.*)$/.exec(part)
    if (m) {
      prefix = m[1]
      out.push(part)
    } else if (prefix !== undefined && /^\d+[A-Z]?$/.test(part)) out.push(prefix + part)
  }
  return out
}

const nameOf = (r: WaypointRoute) => r.route + (r.banner ?? "")

/**
 * Links where a waypoint names another route that the network does not join there. Travel
 * Mapping labels a junction by the road met (US-1's `I-95(66)` at I-95's exit 66) and gives both
 * routes the junction's coordinates; about 500 junctions in the data have the two waypoints 30 m
 * to 1 km apart instead (a surface road's point on the road, the freeway's on the freeway), so
 * the network had no junction: US-1 never met I-95 at exit 66. A link joins the naming waypoint to
 * the named route's nearest visible waypoint within NAMED_LINK_MAX_M when that waypoint is an exit
 * number, names the first route back, or lies on a freeway (`isFreeway`); a nearest waypoint that
 * is none of these is more likely another junction, and is left. Routes named alike in a region
 * (a route in pieces) count as one: a shared waypoint with any of them is a junction.
 */
export const namedJunctionLinks = (
  routes: ReadonlyArray<WaypointRoute>,
  isFreeway: (r: WaypointRoute) => boolean
): Array<RoadLine> => {
  const byName = new Map<string, Array<number>>()
  routes.forEach((r, i) => {
    const k = `${r.region}|${nameOf(r)}`
    const list = byName.get(k)
    if (list) list.push(i)
    else byName.set(k, [i])
  })
  const keys = routes.map((r) => new Set(r.points.map((p) => key(p[1], p[2]))))
  // each name's waypoints, visible or not (a shared hidden point still joins two routes), by position
  const indexes = new Map<string, { at: Array<[number, number]>; kd: KDBush }>()
  const indexOf = (k: string) => {
    let x = indexes.get(k)
    if (!x) {
      const at: Array<[number, number]> = []
      for (const i of byName.get(k) ?? []) for (let j = 0; j < routes[i].points.length; j++) at.push([i, j])
      const kd = new KDBush(Math.max(at.length, 1))
      for (const [i, j] of at) kd.add(routes[i].points[j][2], routes[i].points[j][1])
      kd.finish()
      indexes.set(k, (x = { at, kd }))
    }
    return x
  }
  const out: Array<RoadLine> = []
  const made = new Set<string>()
  for (let s = 0; s < routes.length; s++) {
    const self = nameOf(routes[s])
    for (const p of routes[s].points) {
      if (!visible(p[0])) continue
      for (const name of namedRoutes(p[0])) {
        const k = `${routes[s].region}|${name}`
        if ((byName.get(k) ?? []).every((i) => i === s)) continue
        const { at, kd } = indexOf(k)
        const near = around(kd, p[2], p[1], Infinity, MET_WITHIN_M / 1000, (n: number) => at[n][0] !== s).map(
          (n) => at[n]
        )
        if (near.some(([i, j]) => keys[s].has(key(routes[i].points[j][1], routes[i].points[j][2])))) continue
        let best: { i: number; q: readonly [string, number, number]; m: number } | undefined
        for (const [i, j] of near) {
          const q = routes[i].points[j]
          const m = haversineM(p[1], p[2], q[1], q[2])
          if (visible(q[0]) && m <= NAMED_LINK_MAX_M && (best === undefined || m < best.m)) best = { i, q, m }
        }
        if (!best) continue
        const { i, q } = best
        if (!(EXIT.test(q[0]) || namedRoutes(q[0]).includes(self) || isFreeway(routes[i]))) continue
        const ends = [key(p[1], p[2]), key(q[1], q[2])].sort().join("|")
        if (made.has(ends)) continue
        made.add(ends)
        out.push(linkLine(p, q, [], routes[s].region, `${self} / ${nameOf(routes[i])} junction`))
      }
    }
  }
  return out
}
