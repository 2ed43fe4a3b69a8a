import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { E, L, routingWorld, W } from "../../support/routingWorld.js"

const truck = { profile: "tractor", weight_t: 30, height_m: 4.0 }
const closure = observation("closure-m", {
  jurisdiction: "NE",
  latitude: 40.0,
  longitude: -99.5,
  type: "closure",
  severity: "critical",
  title: "I-1 closed at M",
  affected_roads: ["I-1"],
  start_time: "2020-01-01T00:00:00.000Z"
})

const elsewhere = observation("far-away", { jurisdiction: "NE", latitude: 41.5, longitude: -97 })

const world = routingWorld()
beforeAll(world.start)
afterAll(world.stop)
const post = (body: unknown, key?: string) => world.post(body, key)

const refs = (r: { sections: Array<{ summary: string }> }) => [...new Set(r.sections.map((s) => s.summary))]

describe("POST /routing/route", () => {
  it("routes a truck on the network and answers in the shape of SPEC §2.10", async () => {
    const res = await post({ origin: W, destination: E, truck, customer_route_id: "order-17" })
    expect(res.status).toBe(200)
    expect(res.body.route_id).toMatch(/^rte_/)
    expect(res.body.customer_route_id).toBe("order-17")
    expect(res.body.attribution).toEqual(["Test network"])
    const [r] = res.body.routes
    expect(refs(r)).toEqual(["I-1"])
    // 1° of longitude at 40° N on a 6,371 km sphere
    expect(r.summary.distance_m).toBeCloseTo(85_177, -1)
    expect(r.summary.duration_s).toBeCloseTo(85_177 / (95 / 3.6), -1)
    expect(r.summary.has_tolls).toBe(false)
    expect(r.geometry.type).toBe("LineString")
    expect(r.geometry.coordinates[0]).toEqual([-100, 40])
    expect(r.geometry.coordinates.at(-1)).toEqual([-99, 40])
    expect(r.warnings).toEqual([])
  })

  it("moves the route off a closure the pipeline just ingested, and back once it is archived", async () => {
    // an empty poll retires nothing (DESIGN): the second poll still holds another record
    const script = changeScript("routing-src", [[closure, elsewhere], [elsewhere]])
    const created = script.filter((c) => c.op !== "archived")
    await world.rt.runPromise(applyChanges(created))
    const around = await post({ origin: W, destination: E, truck })
    expect(refs(around.body.routes[0])).toEqual(["US-2"])
    expect(around.body.avoided).toEqual([
      { warning_type: "traffic_event", source_id: "closure-m", title: "I-1 closed at M" }
    ])
    expect(around.body.routes[0].summary.distance_m).toBeGreaterThan(85_177)

    await world.rt.runPromise(applyChanges(script.filter((c) => c.op === "archived")))
    const back = await post({ origin: W, destination: E, truck })
    expect(refs(back.body.routes[0])).toEqual(["I-1"])
    expect(back.body.avoided).toEqual([])
  })

  it("reports a closure it cannot route around as a critical warning on the route", async () => {
    const c = observation("closure-e", {
      jurisdiction: "NE",
      latitude: 39.9,
      longitude: -99.5,
      type: "closure",
      severity: "major",
      title: "SP-5 closed",
      start_time: "2020-01-01T00:00:00.000Z"
    })
    const script = changeScript("routing-src-2", [[c, elsewhere], [elsewhere]])
    await world.rt.runPromise(applyChanges(script.filter((x) => x.op !== "archived")))
    try {
      // the destination sits beyond the closure on a dead end
      const res = await post({ origin: W, destination: { lat: 39.8, lng: -99.5 }, truck })
      expect(res.status).toBe(200)
      const w = res.body.routes[0].warnings.find((x: { source_id: string }) => x.source_id === "closure-e")
      expect(w).toMatchObject({
        type: "traffic_event",
        severity: "critical",
        source: "routing-src-2",
        title: "SP-5 closed",
        properties: { event_type: "closure" }
      })
      expect(res.body.avoided).toEqual([])
      // W → M is 42.6 km, M → the closure 11.1 km
      expect(w.distance_along_route_m).toBeCloseTo(42_589 + 11_119, -2)
      expect(Date.parse(w.projected_arrival_time)).toBeGreaterThan(Date.parse(res.body.departure_time))
    } finally {
      await world.rt.runPromise(applyChanges(script.filter((x) => x.op === "archived")))
    }
  })

  it("warns of a low bridge only when the truck is too tall for it (height plus pad)", async () => {
    const bridge = feature("bridge-1", {
      jurisdiction: "NE",
      feature_type: "bridge_clearances",
      name: "Rail bridge over US-2",
      latitude: 40.1,
      longitude: -99.5,
      properties: { min_vertical_clearance_m: 4.1 }
    })
    const at = new Date(Date.now() - 60_000)
    await world.rt.runPromise(
      applyChanges(
        diffFeaturePoll({
          source: "bridge-src",
          polledAt: at,
          now: at,
          records: [bridge],
          presentIds: [],
          prev: new Map()
        }).changes
      )
    )
    const via = { origin: W, destination: E, waypoints: [{ lat: 40.1, lng: -99.5 }] }
    const tall = await post({ ...via, truck })
    const w = tall.body.routes[0].warnings.filter((x: { type: string }) => x.type === "bridge_clearance")
    expect(w).toHaveLength(1)
    expect(w[0]).toMatchObject({ severity: "critical", properties: { clearance_m: 4.1, truck_height_m: 4.0 } })
    const low = await post({ ...via, truck: { ...truck, height_m: 3.9 } })
    expect(low.body.routes[0].warnings.filter((x: { type: string }) => x.type === "bridge_clearance")).toEqual([])
    const noPad = await post({ ...via, truck, enrichment: { clearance_pad_m: 0 } })
    expect(noPad.body.routes[0].warnings.filter((x: { type: string }) => x.type === "bridge_clearance")).toEqual([])
  })

  it("keeps a truck from the network's own limits and names each with its source in avoided; a truck within them goes straight over", async () => {
    const low = await post({ origin: W, destination: L, truck: { ...truck, height_m: 3.5, axle_count: 3 } })
    expect(refs(low.body.routes[0])).toEqual(["L-6"])
    expect(low.body.avoided).toEqual([])
    const tall = await post({ origin: W, destination: L, truck: { ...truck, height_m: 4.0, axle_count: 3 } })
    expect(refs(tall.body.routes[0])).toEqual(["L-7"])
    expect(tall.body.avoided).toEqual([
      {
        warning_type: "bridge_clearance",
        source_id: "L-6 river bridge: test clearance survey, 2026-01-01",
        title: "clearance 3.8 m on L-6 (L-6 river bridge: test clearance survey, 2026-01-01)"
      }
    ])
    const five = await post({ origin: W, destination: L, truck: { ...truck, height_m: 4.0, axle_count: 5 } })
    expect(refs(five.body.routes[0])).toEqual(["L-7"])
    expect(five.body.avoided.map((a: { warning_type: string; title: string }) => [a.warning_type, a.title])).toEqual([
      ["bridge_clearance", "clearance 3.8 m on L-6 (L-6 river bridge: test clearance survey, 2026-01-01)"],
      ["truck_restriction", "most axles 3 on L-6 (L-6 river bridge: test axle rule, 2026-01-01)"]
    ])
  })

  it("flags tolls and keeps off toll roads when asked (either spelling)", async () => {
    const to = { lat: 40.0, lng: -98.9 }
    const paid = await post({ origin: W, destination: to, truck })
    expect(paid.body.routes[0].summary.has_tolls).toBe(true)
    for (const avoid of [["toll_road"], ["tolls"]]) {
      const free = await post({ origin: W, destination: to, truck, avoid })
      expect(free.body.routes[0].summary.has_tolls).toBe(false)
      expect(refs(free.body.routes[0])).toContain("S-4")
    }
  })

  it("prices tolls for the truck's class, converts currency, and adds a toll-free alternative", async () => {
    const to = { lat: 40.0, lng: -98.9 }
    const priced = await post({ origin: W, destination: to, truck: { ...truck, axle_count: 5 }, include: ["tolls"] })
    const r = priced.body.routes[0]
    const tolled = r.sections.filter((s: { tolls?: unknown }) => s.tolls !== undefined)
    expect(tolled).toHaveLength(1)
    const km = tolled[0].distance_m / 1000
    // dated as its source gives the rate; nothing later known, so nothing superseded
    expect(tolled[0].tolls).toEqual([
      {
        system: "Test Toll",
        fares: [
          { name: "Class 5", price: { currency: "USD", value: Math.round(km * 0.1 * 100) / 100 }, as_of: "2026-01-01" }
        ]
      }
    ])
    expect(r.summary.toll_costs).toEqual([{ currency: "USD", value: Math.round(km * 0.1 * 100) / 100 }])
    expect(r.sections.filter((s: { tolls?: unknown }) => s.tolls === undefined).length).toBeGreaterThan(0)

    const cad = await post({
      origin: W,
      destination: to,
      truck: { ...truck, axle_count: 5 },
      include: ["tolls"],
      currency: "CAD"
    })
    expect(cad.body.routes[0].summary.toll_costs).toEqual([
      { currency: "CAD", value: Math.round(km * 0.1 * 1.5 * 100) / 100 }
    ])

    // two axles: a class we hold no rate for is named, never priced at 0
    const twoAxles = await post({
      origin: W,
      destination: to,
      truck: { ...truck, profile: "straight" },
      include: ["tolls"]
    })
    const fare = twoAxles.body.routes[0].sections.find((s: { tolls?: unknown }) => s.tolls).tolls[0].fares[0]
    expect(fare).toEqual({ name: "2 axles", unpriced_reason: "no rate on file for 2 axles" })
    expect(twoAxles.body.routes[0].summary).not.toHaveProperty("toll_costs")

    // six axles: the latest rate on file was replaced by one that is not: still priced (an unpriced
    // fare would count as nothing in toll_costs), dated, and flagged
    const sixAxles = await post({ origin: W, destination: to, truck: { ...truck, axle_count: 6 }, include: ["tolls"] })
    const six = sixAxles.body.routes[0].sections.find((s: { tolls?: unknown }) => s.tolls).tolls[0].fares[0]
    expect(six).toEqual({
      name: "Class 6",
      price: { currency: "USD", value: Math.round(km * 0.12 * 100) / 100 },
      as_of: "2020-01-01",
      superseded: "raised in 2024, that rate not on file"
    })

    const withAlt = await post({
      origin: W,
      destination: to,
      truck: { ...truck, axle_count: 5 },
      include: ["toll_alternative"]
    })
    expect(withAlt.body.routes).toHaveLength(2)
    expect(withAlt.body.routes[0].summary.toll_costs).toHaveLength(1)
    expect(withAlt.body.routes[1].summary).toMatchObject({ has_tolls: false })
    expect(withAlt.body.routes[1].summary).not.toHaveProperty("toll_costs")

    // avoid + alternatives + tolls: both routes come back priced
    const both = await post({
      origin: W,
      destination: to,
      truck: { ...truck, axle_count: 5 },
      include: ["tolls"],
      avoid: ["ferry"],
      alternatives: 1
    })
    expect(both.body.routes.length).toBeGreaterThanOrEqual(1)
    for (const route of both.body.routes) if (route.summary.has_tolls) expect(route.summary.toll_costs).toBeDefined()

    const plain = await post({ origin: W, destination: to, truck })
    expect(plain.body.routes[0].summary).not.toHaveProperty("toll_costs")
    expect(plain.body.routes[0].sections.every((s: object) => !("tolls" in s))).toBe(true)

    const unknown = await post({ origin: W, destination: to, truck, include: ["tolls"], currency: "JPY" })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toMatch(/currency JPY is not in the rate table \(USD, CAD\)/)
  })

  it("warns of every hazard type along the route by the rules of §2.10", async () => {
    const now = Date.now()
    const iso = (ms: number) => new Date(ms).toISOString()
    const onI1 = (lng: number) => ({
      jurisdiction: "NE",
      latitude: 40.0,
      longitude: lng,
      start_time: iso(now - 3_600_000)
    })
    const events = [
      observation("w-crash", {
        ...onI1(-99.9),
        type: "incident",
        sub_type: "Crash",
        severity: "major",
        title: "Crash on I-1"
      }),
      observation("w-works", {
        ...onI1(-99.8),
        type: "construction",
        sub_type: "Paving",
        severity: "moderate",
        title: "Paving from tomorrow",
        start_time: iso(now + 86_400_000)
      }),
      observation("w-fair", { ...onI1(-99.7), type: "special_event", title: "County fair" }),
      observation("w-snow", {
        ...onI1(-99.65),
        type: "weather",
        sub_type: "Snow",
        severity: "moderate",
        title: "Snow squalls"
      }),
      observation("w-note", { ...onI1(-99.6), type: "advisory", title: "Wind advisory" }),
      observation("w-over", {
        ...onI1(-99.95),
        type: "incident",
        title: "Cleared before we get there",
        end_time: iso(now + 3_600_000)
      })
    ]
    const at = new Date(now - 60_000)
    const onSpur = (lat: number) => ({ jurisdiction: "NE", latitude: lat, longitude: -99.5 })
    const features = [
      feature("w-scale-open", {
        ...onI1(-99.85),
        feature_type: "weigh_stations",
        name: "I-1 scale",
        properties: { status: "open", status_updated_at: iso(now - 600_000) }
      }),
      feature("w-insp-closed", {
        ...onI1(-99.75),
        feature_type: "inspection_stations",
        name: "I-1 inspection",
        properties: { status: "closed" }
      }),
      feature("w-scale-plain", { ...onI1(-99.72), feature_type: "weigh_stations", name: "Old scale", properties: {} }),
      feature("w-park", {
        ...onI1(-99.55),
        feature_type: "truck_parking",
        name: "M truck stop",
        properties: { capacity: 40 }
      }),
      feature("w-rail-quiet", {
        ...onSpur(39.97),
        feature_type: "rail_crossings",
        name: "Spur line",
        properties: { at_grade: true, public: true, daily_trains: 2, crossing_type: "gates" }
      }),
      feature("w-rail-busy", {
        ...onSpur(39.96),
        feature_type: "rail_crossings",
        name: "Main line",
        properties: { at_grade: true, public: true, daily_trains: 30 }
      }),
      feature("w-narrow", {
        ...onSpur(39.93),
        feature_type: "truck_restrictions",
        name: "Narrow bridge",
        properties: {
          restrictions: [
            { type: "reduced-width", value: 2.5, unit: "m", lane: null },
            { type: "reduced-length", value: 20, unit: "m", lane: null }
          ]
        }
      }),
      feature("w-weight", {
        ...onSpur(39.9),
        feature_type: "weight_restrictions",
        name: "Weak culvert",
        properties: { weight_limit_tons: 20 }
      }) // short tons, as the WZDx adapter writes them
    ]
    await world.rt.runPromise(applyChanges(changeScript("warn-src", [[...events, elsewhere]], now - 120_000)))
    await world.rt.runPromise(
      applyChanges(
        diffFeaturePoll({
          source: "warn-feat",
          polledAt: at,
          now: at,
          records: features,
          presentIds: [],
          prev: new Map()
        }).changes
      )
    )
    const trip = { origin: W, destination: { lat: 39.85, lng: -99.5 }, departure_time: iso(now + 2 * 86_400_000) }
    const big = { ...truck, width_m: 2.6, length_m: 22 }
    const res = await post({ ...trip, truck: big, enrichment: { include_features: ["truck_parking"] } })
    expect(res.status).toBe(200)
    // a refetch of the saved route, from what it kept, answers exactly as the call did
    const again = await world.get(`/routing/route/saved/${res.body.route_id}`)
    expect(again.headers.get("content-type")).toContain("application/json")
    expect(again.body.routes[0].warnings).toEqual(res.body.routes[0].warnings)
    expect(again.body.routes[0].features).toEqual(res.body.routes[0].features)
    expect(again.body.hazard_count).toBe(res.body.hazard_count)
    const r = res.body.routes[0]
    const byId = (id: string) => r.warnings.filter((w: { source_id: string }) => w.source_id === id)
    expect(byId("w-crash")[0]).toMatchObject({
      type: "traffic_event",
      severity: "warning",
      properties: { sub_type: "Crash" }
    })
    expect(byId("w-works")[0]).toMatchObject({ type: "future_construction", properties: { sub_type: "Paving" } })
    expect(byId("w-fair")[0]).toMatchObject({ type: "special_event" })
    expect(byId("w-snow")[0]).toMatchObject({ type: "weather", severity: "warning" })
    expect(byId("w-note")[0]).toMatchObject({ type: "alert", severity: "info" })
    expect(byId("w-over")).toEqual([]) // ended before the projected arrival
    expect(byId("w-scale-open")[0]).toMatchObject({
      type: "weigh_station",
      severity: "warning",
      status: "open",
      as_of: iso(now - 600_000),
      properties: { status: "open" }
    })
    expect(byId("w-insp-closed")[0]).toMatchObject({ type: "inspection_station", severity: "info", status: "closed" })
    expect(byId("w-scale-plain")[0]).toMatchObject({ type: "weigh_station", severity: "info" })
    expect(byId("w-scale-plain")[0]).not.toHaveProperty("status")
    expect(byId("w-rail-quiet")).toEqual([])
    expect(byId("w-rail-busy")[0]).toMatchObject({
      type: "rail_crossing",
      severity: "info",
      properties: { at_grade: true, public: true }
    })
    expect(
      byId("w-narrow")
        .map((w: { properties: { dimension: string } }) => w.properties.dimension)
        .sort()
    ).toEqual(["length", "width"])
    expect(byId("w-narrow")[0]).toMatchObject({ type: "truck_restriction", severity: "critical" })
    expect(byId("w-weight")[0]).toMatchObject({
      type: "weight_restriction",
      severity: "critical",
      properties: { weight_limit_t: 18.14, truck_weight_t: 30 }
    })
    // every warning is placed along the route with the arrival projected from the departure
    for (const w of r.warnings) {
      expect(w.distance_along_route_m).toBeGreaterThanOrEqual(0)
      expect(Date.parse(w.projected_arrival_time)).toBeGreaterThanOrEqual(Date.parse(trip.departure_time))
      expect(w.geometry.type).toBe("Point")
      expect(w.source).toMatch(/^warn-/)
    }
    const crash = byId("w-crash")[0]
    // 0.1° of longitude at 40° N, at 95 km/h
    expect(crash.distance_along_route_m).toBeCloseTo(8518, -1)
    expect(Date.parse(crash.projected_arrival_time) - Date.parse(trip.departure_time)).toBeCloseTo(
      (8518 / (95 / 3.6)) * 1000,
      -3
    )
    expect(r.warnings.map((w: { distance_along_route_m: number }) => w.distance_along_route_m)).toEqual(
      [...r.warnings.map((w: { distance_along_route_m: number }) => w.distance_along_route_m)].sort((a, b) => a - b)
    )
    expect(r.features).toEqual([expect.objectContaining({ type: "truck_parking", name: "M truck stop", capacity: 40 })])
    expect(res.body.avoided).toEqual([]) // a dead end: nothing to route around

    // the other side of each dimension: a small, light, placarded truck
    const small = await post({
      ...trip,
      truck: { ...truck, weight_t: 15, width_m: 2.4, length_m: 12, hazardous: ["3"] }
    })
    const s2 = small.body.routes[0].warnings
    expect(s2.filter((w: { source_id: string }) => w.source_id === "w-narrow")).toEqual([])
    expect(s2.filter((w: { source_id: string }) => w.source_id === "w-weight")).toEqual([])
    expect(s2.find((w: { source_id: string }) => w.source_id === "w-rail-quiet")).toMatchObject({
      type: "rail_crossing",
      severity: "critical"
    })

    // the filters
    const filtered = await post({
      ...trip,
      truck: big,
      enrichment: { min_severity: "warning", exclude_types: ["weather"], max_distance_m: 30_000 }
    })
    const types = filtered.body.routes[0].warnings.map(
      (w: { type: string; severity: string; distance_along_route_m: number }) => {
        expect(w.severity).not.toBe("info")
        expect(w.distance_along_route_m).toBeLessThanOrEqual(30_000)
        return w.type
      }
    )
    expect(types).not.toContain("weather")
    expect(types).toContain("traffic_event")
    const all = await post({ ...trip, truck: big, enrichment: { skip_temporal_filter: true } })
    expect(all.body.routes[0].warnings.some((w: { source_id: string }) => w.source_id === "w-over")).toBe(true)

    await world.rt.runPromise(
      applyChanges(
        changeScript("warn-src", [[...events, elsewhere], [elsewhere]], now - 120_000).filter(
          (c) => c.op === "archived"
        )
      )
    )
    await world.rt.runPromise(
      applyChanges(
        diffFeaturePoll({
          source: "warn-feat",
          polledAt: at,
          now: at,
          records: features.map((f) => ({ ...f, is_active: false })),
          presentIds: [],
          prev: new Map()
        }).changes
      )
    )
  })

  it("splits the distance by state or province when asked", async () => {
    const res = await post({ origin: W, destination: E, truck, include: ["mileage_by_state"] })
    const r = res.body.routes[0]
    expect(r.summary.mileage_by_state).toEqual([
      {
        jurisdiction: "AA",
        distance_m: expect.closeTo(r.summary.distance_m / 2, 0),
        distance_mi: expect.closeTo(r.summary.distance_m / 2 / 1609.344, 1)
      },
      {
        jurisdiction: "BB",
        distance_m: expect.closeTo(r.summary.distance_m / 2, 0),
        distance_mi: expect.closeTo(r.summary.distance_m / 2 / 1609.344, 1)
      }
    ])
    const plain = await post({ origin: W, destination: E, truck })
    expect(plain.body.routes[0].summary).not.toHaveProperty("mileage_by_state")
  })

  it("offers alternatives that differ from the best route", async () => {
    const res = await post({ origin: W, destination: E, truck, alternatives: 1 })
    expect(res.body.routes).toHaveLength(2)
    expect(refs(res.body.routes[0])).toEqual(["I-1"])
    expect(refs(res.body.routes[1])).toEqual(["US-2"])
  })

  it("refuses bad requests with a 400 that names the field", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ destination: E, truck }, /origin/],
      [{ origin: W, truck }, /destination/],
      [{ origin: W, destination: E }, /truck/],
      [{ origin: { lat: 95, lng: 0 }, destination: E, truck }, /origin\.lat/],
      [{ origin: W, destination: E, truck, alternatives: 4 }, /alternatives/],
      [{ origin: W, destination: E, truck, enrichment: { buffer_m: 5 } }, /buffer_m/],
      [{ origin: W, destination: E, truck, enrichment: { clearance_pad_m: 1.5 } }, /clearance_pad_m/],
      [{ origin: W, destination: E, truck, avoid: ["motorways"] }, /avoid/],
      [{ origin: W, destination: E, truck, include: ["weather"] }, /include/],
      [{ origin: W, destination: E, truck: { ...truck, hos: { ruleset: "aetr" } } }, /aetr is planned, not available/],
      [{ origin: W, destination: E, truck: { ...truck, profile: "van" } }, /truck\.profile/],
      [{ origin: W, destination: E, truck, surprise: 1 }, /surprise/]
    ]
    for (const [body, message] of cases) {
      const res = await post(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toMatch(message)
    }
  })

  it("answers 422 for a point far from the network, routes on Starter's allowance, and 403 plan_truck with none", async () => {
    const far = await post({ origin: { lat: 45, lng: -90 }, destination: E, truck })
    expect(far.status).toBe(422)
    expect(far.body.error).toMatch(/origin is more than 25 km/)
    const starter = await post({ origin: W, destination: E, truck }, world.keys.starter)
    expect(starter.status).toBe(200)
    expect(starter.headers.get("x-routing-quota-limit")).toBe("100")
    const none = await post({ origin: W, destination: E, truck }, await world.keyWithoutRouting())
    expect(none.status).toBe(403)
    expect(none.body.code).toBe("plan_truck")
  })
})
