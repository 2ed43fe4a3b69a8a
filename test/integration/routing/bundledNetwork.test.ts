import { Effect } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { readSpeedTables, readTravelMapping } from "../../../infra/network/travelMapping.js"
import { StateBoundaries } from "../../../shared/geo/stateMileage.js"
import { type Piece, type SearchRules } from "../../../shared/routing/engine/builtin/RoadGraph.js"
import { haversineM } from "../../../shared/geo/distance.js"
import { violatedLimits } from "../../../shared/routing/engine/builtin/roadLimits.js"
import { routeCover } from "../../../shared/geo/routeCover.js"
import { DEFAULT_MAX_SPEED_KMH, type EngineRequest, type LatLng } from "../../../shared/routing/engine/RoutingEngine.js"
import { CHICAGO, engine, file, graph, net, request, route, TORONTO } from "../../support/bundledNetwork.js"

const TM = file("../../../shared/data/travelmapping")
const boundaries = new StateBoundaries(
  JSON.parse(readFileSync(file("../../shared/geo/data/admin1_us_ca_50m.geojson"), "utf8")),
  (p) => String(p.postal)
)
const roads = (r: { sections: ReadonlyArray<{ summary: string; distance_m: number }> }) =>
  r.sections
    .filter((s) => s.distance_m > 5000)
    .map((s) => s.summary)
    .join(" → ")
/** metres of a route on the sections whose road matches */
const metresOn = (r: { sections: ReadonlyArray<{ summary: string; distance_m: number }> }, re: RegExp) =>
  r.sections.filter((s) => re.test(s.summary)).reduce((t, s) => t + s.distance_m, 0)

/**
 * Random pairs of points on the network's shape points (a fixed seed: the same pairs every run),
 * each snapped to a road `usable` allows; a pair where either fails to snap is drawn again.
 */
const snappedPairs = (seed: number, usable: (e: number) => boolean) => {
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  return () => {
    for (;;) {
      const [i, j] = [Math.floor(rand() * net.shapeLat.length), Math.floor(rand() * net.shapeLat.length)]
      const a = graph.snap(net.shapeLat[i], net.shapeLng[i], 100, usable)
      const b = graph.snap(net.shapeLat[j], net.shapeLng[j], 100, usable)
      if (a && b) return [a, b] as const
    }
  }
}

describe("the bundled US/Canada network", () => {
  it("says a destination is walled off only when no search reaches it, and finds walled-off ones", () => {
    // one edge in six blocked, as dense as a bench's barriers near towns: some points get walled in
    const rules: SearchRules = { blocked: (e) => e % 6 === 1, cost: (_e, s) => s }
    const next = snappedPairs(11, () => true)
    let walled = 0
    for (let checked = 0; checked < 150; checked++) {
      const [a, b] = next()
      const says = graph.walledOff(a, b, rules)
      const found = graph.path(a, b, rules)
      // never wrong when it says so (a false "no" only costs the full search)
      if (says) {
        walled++
        expect(found).toBeUndefined()
      }
    }
    expect(walled).toBeGreaterThan(0)
  })

  it("bounds what roads closed to the truck could have saved: never below a faster way past them, and often enough to skip that search", () => {
    // the roads the network closes to a 4.1 m, 36 t truck (parkways, low structures), and one edge in 41 closed
    // outright
    const limited = (e: number) =>
      violatedLimits(net.props[net.edgeProp[e]], { height_m: 4.1, weight_t: 36, hazmat: false }).length > 0
    const closed = (e: number) => e % 41 === 7
    const truck: SearchRules = {
      blocked: (e) => limited(e) || closed(e),
      lifted: (e) => limited(e) && !closed(e),
      cost: (_e, s) => s
    }
    const unlimited: SearchRules = { blocked: closed, cost: (_e, s) => s }
    let compared = 0
    let faster = 0
    let skipped = 0
    const next = snappedPairs(17, (e) => !truck.blocked(e))
    while (compared < 120) {
      const [a, b] = next()
      if (!graph.path(a, b, truck)) continue
      compared++
      const [cost, floor] = [graph.cost, graph.liftedFloor]
      expect(graph.path(a, b, unlimited)).toBeDefined()
      // a way past the truck's limits strictly faster than the truck's own is never bounded out
      if (graph.cost < cost * (1 - 1e-9)) {
        faster++
        expect(floor).toBeLessThanOrEqual(graph.cost * (1 + 1e-9))
      } else if (floor >= cost * (1 - 1e-9)) skipped++
    }
    // 16 and 32 of the 120 when written
    expect(faster).toBeGreaterThan(0)
    expect(skipped).toBeGreaterThan(10)
  })

  it("finds, with the landmark heuristic, routes exactly as fast as a plain Dijkstra, with blocked roads and penalties", () => {
    const rules: SearchRules = { blocked: (e) => e % 41 === 7, cost: (e, s) => s * (e % 3 === 0 ? 1.4 : 1) }
    const cost = (ps: ReadonlyArray<Piece>) => ps.reduce((t, p) => t + rules.cost(p.e, p.s), 0)
    const next = snappedPairs(5, (e) => !rules.blocked(e))
    let compared = 0
    let pruned = 0
    while (compared < 60) {
      const [a, b] = next()
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
        expect([net.shapeLat[fast[k].a], net.shapeLng[fast[k].a]]).toEqual([
          net.shapeLat[fast[k - 1].b],
          net.shapeLng[fast[k - 1].b]
        ])
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
    // crossing at Detroit or at Port Huron (the Blue Water Bridge), Michigan and Ontario carry most of it
    expect(
      rows
        .slice(0, 2)
        .map((x) => x.jurisdiction)
        .sort()
    ).toEqual(["MI", "ON"])
    const sum = rows.reduce((s, x) => s + x.distance_m, 0)
    expect(Math.abs(sum - r.distance_m)).toBeLessThanOrEqual(r.distance_m * 0.001)
  })

  it.skipIf(!existsSync(TM))(
    "places each border crossing within 2 km of Travel Mapping's border waypoint",
    async () => {
      const r = await route(request(CHICAGO, TORONTO))
      // where the route meets a waypoint labelled like IL/IN or CAN/USA, and how far along it that is
      const border = new Map<string, [number, number]>()
      for (const tm of readTravelMapping(TM)) {
        for (const [label, lat, lng] of tm.points)
          if (/^[A-Z]{2,3}\/[A-Z]{2,3}$/.test(label)) border.set(`${lat.toFixed(6)},${lng.toFixed(6)}`, [lat, lng])
      }
      const crossings: Array<number> = []
      r.coordinates.forEach(([lng, lat], i) => {
        if (border.has(`${lat.toFixed(6)},${lng.toFixed(6)}`)) crossings.push(r.along_m[i])
      })
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
      for (const [i, x] of fromPolygons.entries())
        expect(Math.abs(x - crossings[i]), `crossing ${order[i]}/${order[i + 1]}`).toBeLessThan(2000)
    }
  )

  it("keeps placarded loads out of the Eisenhower Tunnel (I-70) and trucks off New York parkways", async () => {
    const denver = { lat: 39.7392, lng: -104.9903 }
    const vail = { lat: 39.6403, lng: -106.3742 }
    const plain = await route(request(denver, vail))
    const hazmat = await route(request(denver, vail, { truck: { height_m: 4.1, weight_t: 36, hazmat: true } }))
    // Travel Mapping's waypoints on I-70 either side of the tunnel
    const tunnel = [
      [39.67892, -105.934038],
      [39.679019, -105.904212]
    ]
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

  // restrictions.csv: parkways and drives that bar trucks outside New York
  it("keeps trucks off the Merritt and Wilbur Cross Parkways, Lake Shore Drive, the Garden State Parkway north of exit 105 and the Arroyo Seco Parkway", async () => {
    const nycBoston = await route(request({ lat: 40.7128, lng: -74.006 }, { lat: 42.3601, lng: -71.0589 }))
    // took CT-15 for 47 km before; its last few km, the Wilbur Cross Highway in Hartford, are open to trucks
    const onCt15 = metresOn(nycBoston, /^CT15\b/)
    expect(onCt15 / 1000).toBeLessThan(8)
    expect(roads(nycBoston)).toMatch(/I-95.*I-91.*I-84/)
    // Hyde Park → Lincoln Park: Lake Shore Drive is the straight way, closed to trucks
    const chicago = await route(request({ lat: 41.7943, lng: -87.5907 }, { lat: 41.9214, lng: -87.6513 }))
    const lsd = [
      [41.825252, -87.600431],
      [41.83849, -87.6085],
      [41.926069, -87.631245]
    ] // US-41's waypoints on the Drive
    expect(lsd.some(([la, ln]) => chicago.coordinates.some(([lng, lat]) => haversineM(lat, lng, la, ln) < 50))).toBe(
      false
    )
    const tomsRiverParamus = await route(request({ lat: 39.9537, lng: -74.1979 }, { lat: 40.9445, lng: -74.0754 }))
    const onGsp = metresOn(tomsRiverParamus, /GarStaPkwy/)
    expect(onGsp / 1000).toBeLessThan(30) // 126 km before, to exit 165
    // downtown Los Angeles → Pasadena: not up the Arroyo Seco Parkway (SR-110), closed to trucks over 3 tons
    const pasadena = await route(request({ lat: 34.0522, lng: -118.2437 }, { lat: 34.1478, lng: -118.1445 }))
    expect(metresOn(pasadena, /^CA110/)).toBeLessThan(2000)
  })

  // restrictions.csv: tunnels closed to placarded loads (Travel Mapping's waypoints either side of each)
  it.each([
    [
      "Fort Pitt and Squirrel Hill (I-376)",
      { lat: 40.4915, lng: -80.2329 },
      { lat: 40.4212, lng: -79.7881 },
      [
        [40.4378, -80.0133],
        [40.4398, -80.0094],
        [40.429, -79.9317],
        [40.4274, -79.891]
      ]
    ],
    [
      "Ted Williams (I-90, Boston)",
      { lat: 42.3656, lng: -71.0096 },
      { lat: 42.2079, lng: -71.004 },
      [
        [42.3484, -71.0453],
        [42.3658, -71.0248]
      ]
    ],
    [
      "Cumberland Gap (US-25E)",
      { lat: 35.9606, lng: -83.9207 },
      { lat: 36.6084, lng: -83.7166 },
      [
        [36.5927, -83.6634],
        [36.6051, -83.6976]
      ]
    ],
    [
      "SR 99 (Seattle)",
      { lat: 47.58, lng: -122.334 },
      { lat: 47.65, lng: -122.347 },
      [
        [47.5943, -122.3356],
        [47.6239, -122.3437]
      ]
    ],
    [
      "Monitor-Merrimac (I-664)",
      { lat: 36.98, lng: -76.43 },
      { lat: 36.86, lng: -76.44 },
      [
        [36.9702, -76.4173],
        [36.8871, -76.4293]
      ]
    ]
  ] as const)(
    "sends placarded loads around the %s tunnel, which other trucks take",
    async (_name, from, to, portals) => {
      const through = (r: { coordinates: ReadonlyArray<readonly [number, number]> }) =>
        portals.every(([la, ln]) => r.coordinates.some(([lng, lat]) => haversineM(lat, lng, la, ln) < 100))
      const plain = await route(request(from, to))
      const hazmat = await route(request(from, to, { truck: { height_m: 4.1, weight_t: 36, hazmat: true } }))
      expect(through(plain)).toBe(true)
      expect(through(hazmat)).toBe(false)
      expect(hazmat.distance_m).toBeGreaterThan(plain.distance_m)
    }
  )

  it("names the network's limits it kept a truck from, each with its structure, publication and date", async () => {
    const answer = (from: LatLng, to: LatLng, truck: EngineRequest["truck"]) =>
      Effect.runPromise(engine.route(request(from, to, { truck })))
    // placarded: not through the Eisenhower tunnel, and the answer says why
    const denver = { lat: 39.7392, lng: -104.9903 }
    const vail = { lat: 39.6403, lng: -106.3742 }
    const hazmat = await answer(denver, vail, { height_m: 4.1, weight_t: 36, hazmat: true })
    expect(hazmat.limits_avoided!.map((l) => l.title)).toContainEqual(
      expect.stringMatching(
        /^placarded loads barred on I-70 \(Eisenhower-Johnson Memorial Tunnels: CDOT hazardous materials route restrictions .*, 2026-11-02\)$/
      )
    )
    expect((await answer(denver, vail, { height_m: 4.1, weight_t: 36, hazmat: false })).limits_avoided).toEqual([])
    // taller than the Hampton Roads Bridge-Tunnel's 4.21 m: Hampton → Norfolk goes another way and names it
    const hampton = { lat: 37.0299, lng: -76.3452 }
    const norfolk = { lat: 36.8508, lng: -76.2859 }
    const tall = await answer(hampton, norfolk, { height_m: 4.3, weight_t: 30, hazmat: false })
    const hrbt = tall.limits_avoided!.find((l) => l.dimension === "height")
    expect(hrbt).toMatchObject({
      limit: 4.21,
      source: expect.stringMatching(/^Hampton Roads Bridge-Tunnel: westbound tube 13 ft 10 in/)
    })
    const fits = await answer(hampton, norfolk, { height_m: 4.0, weight_t: 30, hazmat: false })
    expect(tall.routes[0].distance_m).toBeGreaterThan(fits.routes[0].distance_m)
    expect(fits.limits_avoided).toEqual([])
    // the Holland Tunnel's limits are on its edges with their sources (its New York end is a dead end in this
    // network, so no route is moved by them)
    const holland = net.props.filter((p) => p.toll === "holland_tunnel")
    expect(holland.length).toBeGreaterThan(0)
    for (const p of holland) {
      expect(p).toMatchObject({ tunnel: true, max_axles: 3, tunnel_category: "D" })
      expect(p.restriction_sources?.max_axles).toMatch(/^Holland Tunnel: PANYNJ: trucks of up to three axles only/)
    }
  })
})

const PLACES: Record<string, LatLng> = {
  Seattle: { lat: 47.6062, lng: -122.3321 },
  Miami: { lat: 25.7617, lng: -80.1918 },
  Chicago: CHICAGO,
  Toronto: TORONTO,
  "New York": { lat: 40.7128, lng: -74.006 },
  "Los Angeles": { lat: 34.0522, lng: -118.2437 },
  Boston: { lat: 42.3601, lng: -71.0589 },
  Atlanta: { lat: 33.749, lng: -84.388 },
  Denver: { lat: 39.7392, lng: -104.9903 },
  Dallas: { lat: 32.7767, lng: -96.797 },
  Minneapolis: { lat: 44.9778, lng: -93.265 },
  "New Orleans": { lat: 29.9511, lng: -90.0715 },
  Portland: { lat: 45.5152, lng: -122.6784 },
  "Salt Lake City": { lat: 40.7608, lng: -111.891 },
  Phoenix: { lat: 33.4484, lng: -112.074 },
  "El Paso": { lat: 31.7619, lng: -106.485 },
  Montreal: { lat: 45.5017, lng: -73.5673 },
  Halifax: { lat: 44.6488, lng: -63.5752 },
  Calgary: { lat: 51.0447, lng: -114.0719 },
  Winnipeg: { lat: 49.8951, lng: -97.1384 },
  Detroit: { lat: 42.3314, lng: -83.0458 },
  Nashville: { lat: 36.1627, lng: -86.7816 },
  "San Francisco": { lat: 37.7749, lng: -122.4194 },
  "Las Vegas": { lat: 36.1699, lng: -115.1398 },
  Houston: { lat: 29.7604, lng: -95.3698 },
  Memphis: { lat: 35.1495, lng: -90.049 },
  Charlotte: { lat: 35.2271, lng: -80.8431 },
  Philadelphia: { lat: 39.9526, lng: -75.1652 },
  "Sioux Falls": { lat: 43.5446, lng: -96.7311 },
  "St. Louis": { lat: 38.627, lng: -90.1994 },
  Billings: { lat: 45.7833, lng: -108.5007 },
  Fargo: { lat: 46.8772, lng: -96.7898 },
  Vancouver: { lat: 49.2827, lng: -123.1207 },
  "Kansas City": { lat: 39.0997, lng: -94.5786 },
  Omaha: { lat: 41.2565, lng: -95.9345 }
}

/**
 * Twenty long routes and the states and provinces each passes through, checked by hand against
 * the highways it takes (its sections). The polygons (1:50m) get several wrong: Seattle → Miami
 * and Sioux Falls → St. Louis gain 9 km of Nebraska (I-29 runs on the Iowa bank of the
 * Missouri), Portland → Salt Lake City 33 km of Washington (I-84 runs on the Oregon bank of the
 * Columbia).
 */
const STATE_ROUTES: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]> = [
  ["Seattle", "Miami", ["WA", "ID", "MT", "WY", "SD", "IA", "MO", "IL", "KY", "TN", "GA", "FL"]],
  ["Chicago", "Toronto", ["IL", "IN", "MI", "ON"]],
  // I-80, I-76, I-70 and I-15, which crosses Arizona's corner in the Virgin River Gorge
  ["New York", "Los Angeles", ["NY", "NJ", "PA", "WV", "OH", "IN", "IL", "MO", "OK", "TX", "NM", "AZ", "CA"]],
  // I-95 round Washington on the Capital Beltway (I-495), not through the District
  ["Boston", "Atlanta", ["MA", "CT", "NY", "NJ", "PA", "MD", "WV", "VA", "NC", "SC", "GA"]],
  // I-25 to Raton, then US-87 and US-287 through Amarillo and Wichita Falls
  ["Denver", "Dallas", ["CO", "NM", "TX"]],
  // I-35, the Avenue of the Saints (US-218, IA-27, US-61) to St. Louis, then I-55 (through West Memphis, Arkansas)
  ["Minneapolis", "New Orleans", ["MN", "IA", "MO", "AR", "TN", "MS", "LA"]],
  ["Portland", "Salt Lake City", ["OR", "ID", "UT"]],
  ["Phoenix", "El Paso", ["AZ", "NM", "TX"]],
  ["Montreal", "Halifax", ["QC", "ME", "NB", "NS"]],
  ["Calgary", "Winnipeg", ["AB", "SK", "MB"]],
  ["Detroit", "Nashville", ["MI", "OH", "KY", "TN"]],
  ["San Francisco", "Las Vegas", ["CA", "NV"]],
  ["Houston", "Memphis", ["TX", "AR", "TN"]],
  ["Charlotte", "Philadelphia", ["NC", "VA", "MD", "DE", "PA"]],
  ["Sioux Falls", "St. Louis", ["SD", "IA", "MO"]],
  ["Billings", "Fargo", ["MT", "ND"]],
  ["Vancouver", "Seattle", ["BC", "WA"]],
  ["Kansas City", "Omaha", ["MO", "IA", "NE"]],
  ["Atlanta", "Chicago", ["GA", "TN", "KY", "IN", "IL"]],
  ["Toronto", "Montreal", ["ON", "QC"]]
]

describe("state miles from the network's own regions", () => {
  it.each(STATE_ROUTES)(
    "%s → %s: every state it enters, none it does not, summing to the route's length",
    async (from, to, states) => {
      const r = await route(request(PLACES[from], PLACES[to]))
      expect(r.regions, "the bundled network knows every road's region").toBeDefined()
      expect(r.regions!.map((x) => x.region).sort()).toEqual([...states].sort())
      const sum = r.regions!.reduce((t, x) => t + x.distance_m, 0)
      expect(Math.abs(sum - r.distance_m)).toBeLessThan(0.01)
      // every state gets a real share of the drive (no slivers from a border drawn a few km off)
      for (const x of r.regions!) expect(x.distance_m, x.region).toBeGreaterThan(0)
      // tolled metres are part of the state's metres, and only where the sections say toll
      const tolled = r.sections.filter((s) => s.toll !== null).reduce((t, s) => t + s.distance_m, 0)
      expect(Math.abs(r.regions!.reduce((t, x) => t + x.toll_m, 0) - tolled)).toBeLessThan(0.01)
      for (const x of r.regions!) expect(x.toll_m).toBeLessThanOrEqual(x.distance_m)
    }
  )

  it.skipIf(!existsSync(TM))(
    "puts each state line of Chicago → Toronto where Travel Mapping's border waypoint is",
    async () => {
      const r = await route(request(CHICAGO, TORONTO))
      const border = new Set<string>()
      for (const tm of readTravelMapping(TM)) {
        for (const [label, lat, lng] of tm.points)
          if (/^[A-Z]{2,3}\/[A-Z]{2,3}$/.test(label)) border.add(`${lat.toFixed(6)},${lng.toFixed(6)}`)
      }
      const crossings: Array<number> = []
      r.coordinates.forEach(([lng, lat], i) => {
        if (border.has(`${lat.toFixed(6)},${lng.toFixed(6)}`)) crossings.push(r.along_m[i])
      })
      // regions come in the order the route enters them; their running totals are the state lines
      expect(r.regions!.map((x) => x.region)).toEqual(["IL", "IN", "MI", "ON"])
      let at = 0
      const lines = r.regions!.slice(0, -1).map((x) => (at += x.distance_m))
      expect(crossings).toHaveLength(3)
      for (const [i, x] of lines.entries()) expect(Math.abs(x - crossings[i])).toBeLessThan(1)
    }
  )

  it("answers origin = destination as a LineString of two positions, standing still where it is", async () => {
    const r = await route(request(PLACES.Seattle, PLACES.Seattle))
    expect(r.coordinates).toHaveLength(2)
    expect(r.coordinates[0]).toEqual(r.coordinates[1])
    // the parallel arrays stay parallel: one value per position, one key per segment
    expect(r.along_m).toEqual([0, 0])
    expect(r.along_s).toEqual([0, 0])
    expect(r.segment_keys).toHaveLength(1)
    expect([r.distance_m, r.duration_s]).toEqual([0, 0])
    expect(r.regions).toEqual([{ region: "WA", distance_m: 0, toll_m: 0 }])
  })

  it("covers a route as the union of its edges' kept covers: every cell of the line's own cover, and few more", async () => {
    const covers = engine.covers!
    for (const [from, to] of [
      [PLACES.Seattle, PLACES.Miami],
      [CHICAGO, TORONTO],
      [PLACES.Seattle, PLACES.Seattle]
    ] as const) {
      const r = await route(request(from, to))
      for (const bufferM of [100, 1500]) {
        const own = routeCover(r.coordinates, r.along_m, bufferM).cells
        const union = new Set(covers(r.segment_keys, bufferM))
        expect(
          own.filter((c) => !union.has(c)),
          `${bufferM} m`
        ).toEqual([])
        // whole edges at the two ends add a little; a long route's band stays its own size
        if (r.distance_m > 100_000) expect(union.size).toBeLessThan(own.length * 1.1)
        // asked again, the same cells come from the kept covers
        expect(new Set(covers(r.segment_keys, bufferM))).toEqual(union)
      }
    }
    // a request's own buffer beyond the kept few, and keys that are not this network's, are left to the caller
    const r = await route(request(CHICAGO, TORONTO))
    for (const b of [10, 20, 30]) covers(r.segment_keys, b)
    expect(covers(r.segment_keys, 40)).toBeUndefined()
    expect(covers(["not-an-edge"], 100)).toBeUndefined()
  })
})

describe("speeds per state and class", () => {
  it("drives Pittsburgh → Philadelphia on the Pennsylvania Turnpike, not over the mountains on US-30", async () => {
    const r = await route(request({ lat: 40.4406, lng: -79.9959 }, { lat: 39.9526, lng: -75.1652 }))
    const on = (re: RegExp) => metresOn(r, re)
    expect(on(/PATP/) / 1000).toBeGreaterThan(380)
    // US-30 as the road itself, not the Parkway East (I-376) that carries its number too
    expect(on(/^US30/) / 1000).toBeLessThan(10)
    // onto the Turnpike at Monroeville, where I-376 ends 700 m from exit 57 without a shared waypoint
    expect(r.sections.some((s) => s.summary === "I-376 / I-76 interchange")).toBe(true)
  })

  // interchanges where a ticketed toll road meets another freeway through a connector: the two
  // waypoints sit apart, and the network had no junction (infra/network/interchangeLinks.ts)
  it("drives Albany → Syracuse on the Thruway, which once had no junction for 296 km, not on US-20", async () => {
    const r = await route(request({ lat: 42.6526, lng: -73.7562 }, { lat: 43.0481, lng: -76.1474 }))
    const on = (re: RegExp) => metresOn(r, re)
    expect(on(/NYST/) / 1000).toBeGreaterThan(180)
    expect(on(/^US20/) / 1000).toBeLessThan(5)
    expect(r.duration_s / 3600).toBeLessThan(2.6)
  })

  it("drives Toledo → Cleveland on the Ohio Turnpike, joined from I-75 at Perrysburg", async () => {
    const r = await route(request({ lat: 41.6528, lng: -83.5379 }, { lat: 41.4993, lng: -81.6944 }))
    expect(metresOn(r, /OHTpk/) / 1000).toBeGreaterThan(100)
    // from downtown the I-280 spur leads there; from I-75 at Perrysburg, the interchange
    const south = await route(request({ lat: 41.52, lng: -83.62 }, { lat: 41.4993, lng: -81.6944 }))
    expect(metresOn(south, /OHTpk/) / 1000).toBeGreaterThan(100)
    expect(south.sections.some((s) => /^I-75 \/ I-80 interchange$/.test(s.summary))).toBe(true)
  })

  // a surface road's waypoint that names a toll road's exit, hundreds of metres from it
  // (infra/network/namedJunctionLinks.ts)
  it.each([
    [
      "Pittston (PA-315) → Philadelphia",
      { lat: 41.3087, lng: -75.7618 },
      { lat: 39.9526, lng: -75.1652 },
      "PA315 / I-476 junction",
      /PATP/,
      140
    ],
    [
      "Willow Grove (PA-611) → Harrisburg",
      { lat: 40.144, lng: -75.1157 },
      { lat: 40.2732, lng: -76.8867 },
      "PA611 / I-276 junction",
      /PATP/,
      140
    ],
    [
      "Canastota (NY-13) → Albany",
      { lat: 43.0795, lng: -75.7507 },
      { lat: 42.6526, lng: -73.7562 },
      "NY13 / I-90 junction",
      /NYST/,
      170
    ]
  ] as const)("joins the toll road at the exit the town uses: %s", async (_name, from, to, junction, road, km) => {
    const r = await route(request(from, to))
    const on = (re: RegExp) => metresOn(r, re)
    expect(r.sections.map((s) => s.summary)).toContain(junction)
    expect(on(road) / 1000).toBeGreaterThan(km)
  })

  it("drives Cranberry → Harrisburg on the Pennsylvania Turnpike from the Cranberry exit to the Carlisle exit", async () => {
    const r = await route(request({ lat: 40.684, lng: -80.1067 }, { lat: 40.2732, lng: -76.8867 }))
    const on = (re: RegExp) => metresOn(r, re)
    expect(on(/PATP/) / 1000).toBeGreaterThan(300)
    // the Cranberry exit meets US-19 and I-79; the Carlisle exit meets US-11, a mile from I-81
    const names = r.sections.map((s) => s.summary).join(" → ")
    expect(names).toMatch(/(US19 \/ I-76 junction|I-76 \/ I-79 interchange) → I-76 \/ PATP/)
    expect(names).toMatch(/PATP \(Pennsylvania Turnpike\) → (US11 \/ I-76 junction|I-76 \/ I-81 interchange)/)
  })

  // state routes built as freeways, read from their numbered exits (infra/network/travelMapping.ts exitStretches)
  it("drives Smyrna → Newark, Delaware, on SR 1's turnpike (through the Biddles Corner plaza), not on US-13 through the towns", async () => {
    const r = await route(request({ lat: 39.2827, lng: -75.5896 }, { lat: 39.6969, lng: -75.6516 }))
    const on = (re: RegExp) => metresOn(r, re)
    expect(on(/^DE1\b/) / 1000).toBeGreaterThan(40)
    expect(on(/^US13$/) / 1000).toBeLessThan(5)
    expect(r.sections.some((s) => s.toll === "de1_biddles")).toBe(true)
  })

  it("drives Sacramento → Bakersfield down CA-99, the valley freeway, not I-5 on the valley's west side", async () => {
    const r = await route(request({ lat: 38.5816, lng: -121.4944 }, { lat: 35.3733, lng: -119.0187 }))
    const on = (re: RegExp) => metresOn(r, re)
    expect(on(/CA99/) / 1000).toBeGreaterThan(400)
    expect(on(/I-5\b/) / 1000).toBeLessThan(10)
  })

  /**
   * The same route timed at the posted truck limit of each piece's state and class (freeways for
   * motorways, rural highways for the rest: truck_speed_limits.csv), or the truck's governor
   * where that is lower: the planned driving time is at most 15 % more (planning runs a little
   * under the limit, and towns, grades and junctions cost time) and never less.
   */
  const limits = readSpeedTables(file("../../shared/routing/data/tables")).limits
  it.each([
    ["Seattle", "Miami"],
    ["New York", "Los Angeles"],
    ["Chicago", "Toronto"],
    ["Calgary", "Winnipeg"],
    ["Denver", "Dallas"],
    ["Boston", "Atlanta"]
  ])("%s → %s takes within 20 %% of the time at posted truck limits or the governor", async (from, to) => {
    const r = await route(request(PLACES[from], PLACES[to]))
    let atLimits = 0
    for (let i = 0; i + 1 < r.coordinates.length; i++) {
      const p = net.props[net.edgeProp[Number(r.segment_keys[i])]]
      const l = limits.get(p.region!)!
      const posted = p.class === "ferry" ? p.speed_kph : p.class === "motorway" ? l.freeway_kph : l.highway_kph
      const kph = p.class === "ferry" ? posted : Math.min(posted, DEFAULT_MAX_SPEED_KMH)
      atLimits += (r.along_m[i + 1] - r.along_m[i]) / (kph / 3.6)
    }
    expect(r.duration_s / atLimits).toBeGreaterThanOrEqual(1)
    expect(r.duration_s / atLimits).toBeLessThanOrEqual(1.2)
  })
})
