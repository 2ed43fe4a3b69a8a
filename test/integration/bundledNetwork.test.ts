import { Effect } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { readTravelMapping } from "../../infra/network/travelMapping.js"
import { StateBoundaries } from "../../shared/geo/stateMileage.js"
import { makeBuiltinEngine } from "../../shared/routing/builtin/BuiltinEngine.js"
import { type Piece, RoadGraph, type SearchRules } from "../../shared/routing/builtin/RoadGraph.js"
import { haversineM } from "../../shared/routing/geometry.js"
import { RoadNetwork } from "../../shared/routing/network/NetworkFile.js"
import type { EngineRequest, LatLng } from "../../shared/routing/RoutingEngine.js"

const file = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const TM = file("../../../shared/data/travelmapping")
const net = RoadNetwork.decode(readFileSync(file("../../infra/network/us-ca.network.json.gz")))
const graph = new RoadGraph(net)
const engine = makeBuiltinEngine(net, graph)
const boundaries = new StateBoundaries(JSON.parse(readFileSync(file("../../infra/data/admin1_us_ca_50m.geojson"), "utf8")), (p) => String(p.postal))

const request = (from: LatLng, to: LatLng, over: Partial<EngineRequest> = {}): EngineRequest => ({
  points: [from, to], truck: { height_m: 4.1, weight_t: 36, hazmat: false }, avoid: { toll_road: false, ferry: false, tunnel: false }, alternatives: 0, exclusions: [], ...over
})
const route = (req: EngineRequest) => Effect.runPromise(engine.route(req)).then((a) => a.routes[0])
const roads = (r: { sections: ReadonlyArray<{ summary: string; distance_m: number }> }) => r.sections.filter((s) => s.distance_m > 5000).map((s) => s.summary).join(" → ")

const CHICAGO = { lat: 41.8781, lng: -87.6298 }
const TORONTO = { lat: 43.6532, lng: -79.3832 }

describe("the bundled US/Canada network", () => {
  it("finds, with the landmark heuristic, routes exactly as fast as a plain Dijkstra, with blocked roads and penalties", () => {
    let seed = 5
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    const rules: SearchRules = { blocked: (e) => e % 41 === 7, cost: (e, s) => s * (e % 3 === 0 ? 1.4 : 1) }
    const cost = (ps: ReadonlyArray<Piece>) => ps.reduce((t, p) => t + rules.cost(p.e, p.s), 0)
    let compared = 0
    let pruned = 0
    while (compared < 60) {
      const [i, j] = [Math.floor(rand() * net.shapeLat.length), Math.floor(rand() * net.shapeLat.length)]
      const a = graph.snap(net.shapeLat[i], net.shapeLng[i], 100, (e) => !rules.blocked(e))
      const b = graph.snap(net.shapeLat[j], net.shapeLng[j], 100, (e) => !rules.blocked(e))
      if (!a || !b) continue
      const fast = graph.path(a, b, rules, true)
      const fastSettled = graph.settled
      const plain = graph.path(a, b, rules, false)
      expect(fast === undefined).toBe(plain === undefined)
      if (!fast || !plain) continue
      compared++
      expect(cost(fast)).toBeCloseTo(cost(plain), 6)
      // the pieces join up into one drive from the origin's snap point to the destination's
      if (fast.length > 0) {
        const at = (j: number) => [net.shapeLat[j], net.shapeLng[j]]
        expect(at(fast[0].a)).toEqual(at(a.j))
        expect(at(fast[fast.length - 1].b)).toEqual(at(b.j))
      }
      for (let k = 1; k < fast.length; k++) {
        expect([net.shapeLat[fast[k].a], net.shapeLng[fast[k].a]]).toEqual([net.shapeLat[fast[k - 1].b], net.shapeLng[fast[k - 1].b]])
      }
      if (fastSettled < graph.settled) pruned++
      expect(fast.some((p) => p.e >= 0 && rules.blocked(p.e))).toBe(false)
    }
    // the heuristic buys something: fewer nodes settled than Dijkstra nearly always
    expect(pruned).toBeGreaterThan(50)
  })

  it("holds the real highway network, its calibration and its credit", () => {
    expect(net.nodeCount).toBeGreaterThan(60_000)
    expect(net.edgeCount).toBeGreaterThan(100_000)
    expect(net.meta.length_factor).toBeGreaterThan(1)
    expect(net.meta.length_factor).toBeLessThan(1.02)
    expect(net.meta.credit.join(" ")).toMatch(/Travel Mapping.*OpenStreetMap contributors/)
  })

  it("drives Chicago → Toronto on the Interstates and the 401, through IL, IN, MI and ON", async () => {
    const r = await route(request(CHICAGO, TORONTO))
    expect(r.distance_m / 1000).toBeGreaterThan(780)
    expect(r.distance_m / 1000).toBeLessThan(880)
    expect(roads(r)).toMatch(/I-94/)
    expect(roads(r)).toMatch(/ON401/)
    const rows = boundaries.split(r.coordinates, r.distance_m)
    expect(rows.map((x) => x.jurisdiction).sort()).toEqual(["IL", "IN", "MI", "ON"])
    expect(rows[0].jurisdiction).toBe("ON")
    const sum = rows.reduce((s, x) => s + x.distance_m, 0)
    expect(Math.abs(sum - r.distance_m)).toBeLessThanOrEqual(r.distance_m * 0.001)
  })

  it.skipIf(!existsSync(TM))("places each border crossing within 2 km of Travel Mapping's border waypoint", async () => {
    const r = await route(request(CHICAGO, TORONTO))
    // where the route meets a waypoint labelled like IL/IN or CAN/USA, and how far along it that is
    const border = new Map<string, [number, number]>()
    for (const tm of readTravelMapping(TM)) {
      for (const [label, lat, lng] of tm.points) if (/^[A-Z]{2,3}\/[A-Z]{2,3}$/.test(label)) border.set(`${lat.toFixed(6)},${lng.toFixed(6)}`, [lat, lng])
    }
    const crossings: Array<number> = []
    r.coordinates.forEach(([lng, lat], i) => { if (border.has(`${lat.toFixed(6)},${lng.toFixed(6)}`)) crossings.push(r.along_m[i]) })
    // the same positions from the polygons: the cumulative lengths in route order
    const order: Array<string> = []
    for (let i = 0; i + 1 < r.coordinates.length; i += 1) {
      const [lng, lat] = r.coordinates[i]
      const code = boundaries.locate(lng, lat)
      if (code && order.at(-1) !== code) order.push(code)
    }
    expect(order).toEqual(["IL", "IN", "MI", "ON"])
    const byCode = new Map(boundaries.split(r.coordinates, r.distance_m).map((x) => [x.jurisdiction, x.distance_m]))
    let at = 0
    const fromPolygons = order.slice(0, -1).map((c) => (at += byCode.get(c)!))
    expect(crossings).toHaveLength(3)
    for (const [i, x] of fromPolygons.entries()) expect(Math.abs(x - crossings[i]), `crossing ${order[i]}/${order[i + 1]}`).toBeLessThan(2000)
  })

  it("keeps placarded loads out of the Eisenhower Tunnel (I-70) and trucks off New York parkways", async () => {
    const denver = { lat: 39.7392, lng: -104.9903 }
    const vail = { lat: 39.6403, lng: -106.3742 }
    const plain = await route(request(denver, vail))
    const hazmat = await route(request(denver, vail, { truck: { height_m: 4.1, weight_t: 36, hazmat: true } }))
    // Travel Mapping's waypoints on I-70 either side of the tunnel
    const tunnel = [[39.67892, -105.934038], [39.679019, -105.904212]]
    const throughTunnel = (r: { coordinates: ReadonlyArray<readonly [number, number]> }) =>
      tunnel.every(([la, ln]) => r.coordinates.some(([lng, lat]) => haversineM(lat, lng, la, ln) < 100))
    expect(throughTunnel(plain)).toBe(true)
    expect(throughTunnel(hazmat)).toBe(false)
    expect(roads(hazmat)).toMatch(/US6/) // over Loveland Pass
    expect(hazmat.distance_m).toBeGreaterThan(plain.distance_m)
    const bronx = { lat: 40.85, lng: -73.87 }
    const whitePlains = { lat: 41.033, lng: -73.763 }
    const r = await route(request(bronx, whitePlains))
    expect(roads(r)).not.toMatch(/Pkwy|Parkway/)
  })
})
