import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { tpims } from "../../../pipeline/sources/tpims.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { decodeOk } from "../../support/adapterSuite.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { E, routingWorld, W } from "../../support/routingWorld.js"

const world = routingWorld()
beforeAll(world.start)
afterAll(world.stop)

const truck = { profile: "tractor", weight_t: 30, height_m: 4.0 }
const DEPART = "2030-03-04T08:00:00.000Z"
/** I-1 runs W → E at 95 km/h: 20 minutes of driving ends about 31.7 km east of W */
const BREAK_DUE = { ruleset: "us", since_break_s: 1200 }

/** a TPIMS feed with one lot on I-1 before the break is due and one after, `spots` free at the first */
const feed = (spots: string) => ({
  static: [
    {
      siteId: "HOS-LOT-A",
      name: "I-1 lot A",
      relevantHighway: "I-1",
      location: { latitude: 40.0, longitude: -99.75, state: "NE" },
      capacity: 30
    },
    {
      siteId: "HOS-LOT-B",
      name: "I-1 lot B",
      relevantHighway: "I-1",
      location: { latitude: 40.003, longitude: -99.55, state: "NE" },
      capacity: 50
    }
  ],
  dynamic: [
    { siteId: "HOS-LOT-A", timeStamp: "2030-03-04T07:55:00Z", reportedAvailable: spots, open: true, trustData: true },
    { siteId: "HOS-LOT-B", timeStamp: "2030-03-04T07:55:00Z", reportedAvailable: "40", open: true, trustData: true }
  ]
})

describe("POST /routing/route with truck.hos", () => {
  it("suggests the lot before the deadline with its live spaces, and calls the stop infeasible once the feed shows it full", async () => {
    const at = new Date("2030-03-04T07:56:00Z")
    const first = decodeOk(tpims, feed("12"))
    const polled = diffFeaturePoll({
      source: "hos-tpims",
      polledAt: at,
      now: at,
      records: first.records,
      rawHashes: first.rawHashes,
      presentIds: [],
      prev: new Map()
    })
    await world.rt.runPromise(applyChanges(polled.changes))

    const ask = () =>
      world.post({ origin: W, destination: E, departure_time: DEPART, truck: { ...truck, hos: BREAK_DUE } })
    const open = await ask()
    expect(open.status).toBe(200)
    expect(open.body.hos_ruleset).toBe("us")
    const [stop] = open.body.routes[0].hos
    expect(stop).toMatchObject({ reason: "break_required", feasible: true, rest_s: 1800 })
    expect(stop.suggested_stops).toHaveLength(1) // lot B lies beyond the deadline
    expect(stop.suggested_stops[0]).toMatchObject({
      type: "truck_parking",
      name: "I-1 lot A",
      capacity: 30,
      available_spots: 12,
      as_of: "2030-03-04T07:55:00.000Z"
    })
    // the driver stops at lot A, before the hours run out at the deadline
    expect(stop.distance_along_route_m).toBe(stop.suggested_stops[0].distance_along_route_m)
    expect(stop.distance_along_route_m).toBeGreaterThan(20_000)
    expect(stop.distance_along_route_m).toBeLessThan(stop.deadline_distance_along_route_m)
    expect(Math.abs(stop.deadline_distance_along_route_m - 31_700)).toBeLessThan(1_000)
    expect(stop.legal_deadline).toBe("2030-03-04T08:20:00.000Z")
    expect(Date.parse(stop.projected_time)).toBeLessThan(Date.parse(stop.legal_deadline))

    // the feed now shows lot A full: no other lot is reachable before the deadline
    const second = decodeOk(tpims, feed("0"), {
      previousRaw: new Map([...polled.upserts].flatMap(([k, e]) => (e.r ? [[k, e.r] as const] : [])))
    })
    const later = new Date("2030-03-04T07:58:00Z")
    await world.rt.runPromise(
      applyChanges(
        diffFeaturePoll({
          source: "hos-tpims",
          polledAt: later,
          now: later,
          records: second.records,
          rawHashes: second.rawHashes,
          presentIds: [],
          prev: new Map(polled.upserts)
        }).changes
      )
    )
    const full = await ask()
    // the route planned while the lot was open, refetched now, sees it full too
    const refetched = await world.get(`/routing/route/saved/${open.body.route_id}`)
    expect(refetched.body.routes[0].hos[0]).toMatchObject({
      reason: "break_required",
      feasible: false,
      suggested_stops: []
    })
    const [after] = full.body.routes[0].hos
    expect(after).toMatchObject({ reason: "break_required", feasible: false, suggested_stops: [] })
    // with nowhere to stop the projection stops where the hours run out
    expect(after.distance_along_route_m).toBe(after.deadline_distance_along_route_m)
    expect(after.projected_time).toBe(after.legal_deadline)
  })

  it("orders several stops closest to the deadline first, across stop types, and never shows unknown spaces as a number", async () => {
    const at = new Date("2030-03-04T07:56:00Z")
    const places = [
      feature("hos-rest", {
        jurisdiction: "NE",
        latitude: 40.0,
        longitude: -99.85,
        feature_type: "rest_areas",
        name: "I-1 rest area",
        properties: { capacity: 12 }
      }),
      feature("hos-truck-rest", {
        jurisdiction: "NE",
        latitude: 40.004,
        longitude: -99.8,
        feature_type: "truck_rest_areas",
        name: "I-1 truck rest",
        properties: {}
      })
    ]
    const placed = diffFeaturePoll({
      source: "hos-places",
      polledAt: at,
      now: at,
      records: places,
      presentIds: [],
      prev: new Map()
    })
    await world.rt.runPromise(applyChanges(placed.changes))
    const res = await world.post({
      origin: W,
      destination: E,
      departure_time: DEPART,
      truck: { ...truck, hos: BREAK_DUE }
    })
    // gone again, so the other tests see only their own lots
    const gone = new Date("2030-03-04T07:57:00Z")
    await world.rt.runPromise(
      applyChanges(
        diffFeaturePoll({
          source: "hos-places",
          polledAt: gone,
          now: gone,
          records: places.map((p) => ({ ...p, is_active: false })),
          presentIds: [],
          prev: new Map(placed.upserts)
        }).changes
      )
    )
    const names = res.body.routes[0].hos[0].suggested_stops.map((s: { name: string }) => s.name)
    expect(names.slice(-2)).toEqual(["I-1 truck rest", "I-1 rest area"])
    const rest = res.body.routes[0].hos[0].suggested_stops.find((s: { name: string }) => s.name === "I-1 rest area")
    expect(rest).toMatchObject({ type: "rest_area", capacity: 12 })
    expect(rest).not.toHaveProperty("available_spots")
    expect(
      res.body.routes[0].hos[0].suggested_stops.find((s: { name: string }) => s.name === "I-1 truck rest").type
    ).toBe("truck_rest_area")
  })

  it("stops before moving when a counter is an explicit 0, and not at all for a fresh driver on a short trip", async () => {
    const zero = await world.post({
      origin: W,
      destination: E,
      departure_time: DEPART,
      truck: { ...truck, hos: { ruleset: "us", drive_remaining_s: 0 } }
    })
    expect(zero.body.routes[0].hos[0]).toMatchObject({
      reason: "drive_limit",
      distance_along_route_m: 0,
      projected_time: DEPART,
      legal_deadline: DEPART,
      rest_s: 36_000,
      feasible: false
    })
    // the trip counts the rest: it arrives 10 h later than the driving alone would have it
    const out = zero.body.routes[0].summary
    expect(out.rest_duration_s).toBe(36_000)
    expect(out.trip_duration_s).toBe(out.duration_s + 36_000)
    expect(out.arrival_time).toBe(new Date(Date.parse(DEPART) + out.trip_duration_s * 1000).toISOString())
    const fresh = await world.post({
      origin: W,
      destination: E,
      departure_time: DEPART,
      truck: { ...truck, hos: { ruleset: "canada_south" } }
    })
    expect(fresh.body.routes[0].hos).toEqual([])
    expect(fresh.body.hos_ruleset).toBe("canada_south")
    expect(fresh.body.routes[0].summary).toMatchObject({
      rest_duration_s: 0,
      trip_duration_s: fresh.body.routes[0].summary.duration_s,
      arrival_time: new Date(Date.parse(DEPART) + fresh.body.routes[0].summary.duration_s * 1000).toISOString()
    })
  })

  it("takes the deployment's ruleset for an empty one, and leaves hos out when not asked", async () => {
    const empty = await world.post({
      origin: W,
      destination: E,
      departure_time: DEPART,
      truck: { ...truck, hos: { ruleset: "", since_break_s: 0 } }
    })
    expect(empty.body.hos_ruleset).toBe("us") // DEFAULT_HOS_RULESET's default
    expect(empty.body.routes[0].hos[0].reason).toBe("break_required")
    const none = await world.post({ origin: W, destination: E, truck })
    expect(none.body.routes[0]).not.toHaveProperty("hos")
    expect(none.body).not.toHaveProperty("hos_ruleset")
    const aetr = await world.post({ origin: W, destination: E, truck: { ...truck, hos: { ruleset: "aetr" } } })
    expect(aetr.status).toBe(400)
    expect(aetr.body.error).toMatch(/aetr/)
  })

  it("judges a warning's window at an arrival that counts the planned rests, on the call and on a refetch", async () => {
    // in force 17:00–06:00 at -99.5 on I-1: a driver out of hours rests 10 h first and arrives after 18:00
    const night = observation("hos-night-fair", {
      jurisdiction: "NE",
      latitude: 40.0,
      longitude: -99.5,
      type: "special_event",
      severity: "moderate",
      title: "Night fair traffic",
      affected_roads: ["I-1"],
      start_time: "2030-03-04T17:00:00.000Z",
      end_time: "2030-03-05T06:00:00.000Z"
    })
    const elsewhere = observation("hos-far", { jurisdiction: "NE", latitude: 41.5, longitude: -97 })
    const script = changeScript("hos-events", [[night, elsewhere], [elsewhere]])
    const archived = script.filter((c) => c.op === "archived")
    await world.rt.runPromise(applyChanges(script.filter((c) => c.op !== "archived")))
    try {
      const rested = await world.post({
        origin: W,
        destination: E,
        departure_time: DEPART,
        truck: { ...truck, hos: { ruleset: "us", drive_remaining_s: 0 } }
      })
      expect(rested.status).toBe(200)
      expect(rested.body.routes[0].hos[0]).toMatchObject({
        reason: "drive_limit",
        rest_s: 36_000,
        rest_kind: "daily_rest"
      })
      const fair = rested.body.routes[0].warnings.filter((w: { source_id: string }) => w.source_id === "hos-night-fair")
      expect(fair).toHaveLength(1)
      // 10 h of rest, then about 26 minutes of driving to -99.5
      const arrival = Date.parse(fair[0].projected_arrival_time)
      expect(arrival).toBeGreaterThan(Date.parse("2030-03-04T18:00:00Z"))
      expect(arrival).toBeLessThan(Date.parse("2030-03-04T19:00:00Z"))
      const refetched = await world.get(`/routing/route/saved/${rested.body.route_id}`)
      expect(
        refetched.body.routes[0].warnings.filter((w: { source_id: string }) => w.source_id === "hos-night-fair")
      ).toEqual(fair)
      // a fresh driver passes at 08:26, before the fair: no warning
      const fresh = await world.post({
        origin: W,
        destination: E,
        departure_time: DEPART,
        truck: { ...truck, hos: { ruleset: "us" } }
      })
      expect(
        fresh.body.routes[0].warnings.filter((w: { source_id: string }) => w.source_id === "hos-night-fair")
      ).toEqual([])
    } finally {
      await world.rt.runPromise(applyChanges(archived))
    }
  })

  it("answers 400 naming an option of another regime or a zone it does not know", async () => {
    const cycle = await world.post({
      origin: W,
      destination: E,
      truck: { ...truck, hos: { ruleset: "canada_south", cycle: "60_7" } }
    })
    expect(cycle.status).toBe(400)
    expect(cycle.body.error).toMatch(/truck\.hos\.cycle: canada_south takes cycle_1 or cycle_2/)
    const split = await world.post({
      origin: W,
      destination: E,
      truck: { ...truck, hos: { ruleset: "eu", sleeper_berth: "8_2" } }
    })
    expect(split.status).toBe(400)
    expect(split.body.error).toMatch(/sleeper_berth: applies to us only/)
    const zone = await world.post({
      origin: W,
      destination: E,
      truck: { ...truck, hos: { ruleset: "canada_south", home_terminal_tz: "Mars/Olympus" } }
    })
    expect(zone.status).toBe(400)
    expect(zone.body.error).toMatch(/home_terminal_tz/)
    const hour = await world.post({
      origin: W,
      destination: E,
      truck: { ...truck, hos: { ruleset: "canada_south", day_start_hour: 24 } }
    })
    expect(hour.status).toBe(400)
    const ok = await world.post({
      origin: W,
      destination: E,
      departure_time: DEPART,
      truck: {
        ...truck,
        hos: {
          ruleset: "canada_south",
          cycle: "cycle_2",
          cycle_remaining_s: 0,
          home_terminal_tz: "America/Toronto",
          day_start_hour: 6
        }
      }
    })
    expect(ok.status).toBe(200)
    expect(ok.body.routes[0].hos[0]).toMatchObject({
      reason: "cycle_limit",
      rest_s: 72 * 3600,
      rest_kind: "cycle_reset",
      distance_along_route_m: 0
    })
  })
})
