import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey } from "../../../infra/admin/keys.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { purgeExpiredRoutes } from "../../../shared/routing/saved/savedRoutes.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { api } from "../../support/http.js"
import { E, routingWorld, W } from "../../support/routingWorld.js"

/** Saved and persisted routes (SPEC §3, §4.4) over real HTTP, Postgres and Redis. */
const world = routingWorld()
const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  world.rt.runPromise(Effect.flatMap(SqlClient.SqlClient, f) as Effect.Effect<A>)
const keyFor = async (plan: string, email: string) =>
  api(world.base, (await world.rt.runPromise(createKey({ plan, email }))).key)
let other: ReturnType<typeof api>
beforeAll(async () => {
  await world.start()
  // small numbers of our own in this file's database, before any key is used
  await sql((s) => s`UPDATE plans SET saved_route_slots = 2 WHERE code = 'pro'`)
  await sql((s) => s`UPDATE plans SET saved_route_slots = 1 WHERE code = 'enterprise'`)
  other = await keyFor("pro", "other-fleet@example.com")
})
afterAll(world.stop)

const truck = { profile: "tractor", weight_t: 30, height_m: 4.0 }
const json = (method: string, body?: unknown) => ({
  method,
  headers: { "Content-Type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) })
})
const pro = () => api(world.base, world.keys.pro)
const routeOf = async (call = pro(), extra: Record<string, unknown> = {}) => {
  const r = await call("/routing/route", json("POST", { origin: W, destination: E, truck, ...extra }))
  expect(r.status).toBe(200)
  return r.body.route_id as string
}

describe("saved routes", () => {
  it("keeps every call 30 minutes under route_id and works its warnings out again on refetch, without quota", async () => {
    const first = await pro()(
      "/routing/route",
      json("POST", { origin: W, destination: E, truck, customer_route_id: "load-9", include: ["tolls"] })
    )
    const id = first.body.route_id
    const left = first.headers.get("x-routing-quota-remaining")
    const saved = await pro()(`/routing/route/saved/${id}`)
    expect(saved.status).toBe(200)
    // worked out at its own instant: never 304-able, never stored (docs/DECISIONS.md, "ETag and 304")
    expect(saved.headers.get("etag")).toBeNull()
    expect(saved.headers.get("cache-control")).toBe("no-store")
    expect(saved.body.saved.state).toBe("saved")
    expect(Date.parse(saved.body.saved.expires_at) - Date.parse(saved.body.saved.created_at)).toBe(30 * 60_000)
    expect(saved.body.saved.persisted_at).toBeNull()
    expect(saved.body.route_id).toBe(id)
    expect(saved.body.customer_route_id).toBe("load-9")
    expect(saved.body.resolved_truck).toEqual({ ...truck, max_speed_kmh: 105 })
    // every route's geometry comes back exactly (spliced from the kept text, not re-read from the tracks)
    expect(saved.body.routes.map((r: { geometry: unknown }) => r.geometry)).toEqual(
      first.body.routes.map((r: { geometry: unknown }) => r.geometry)
    )
    expect(saved.body.routes[0].summary).toEqual(first.body.routes[0].summary)
    expect(saved.body.routes[0].warnings).toEqual([])

    // a closure ingested after the call: the saved route is not moved, it is warned
    const closure = observation("saved-closure", {
      jurisdiction: "NE",
      latitude: 40.0,
      longitude: -99.5,
      type: "closure",
      severity: "major",
      title: "I-1 closed at M",
      start_time: "2020-01-01T00:00:00.000Z"
    })
    const script = changeScript("saved-src", [[closure]])
    await world.rt.runPromise(applyChanges(script))
    try {
      const again = await pro()(`/routing/route/saved/${id}`)
      expect(again.body.routes[0].geometry).toEqual(first.body.routes[0].geometry)
      expect(
        again.body.routes[0].warnings.map((w: { source_id: string; severity: string; type: string }) => [
          w.type,
          w.severity,
          w.source_id
        ])
      ).toEqual([["traffic_event", "critical", "saved-closure"]])
      expect(again.body.hazard_count).toBe(1)
      expect(Date.parse(again.body.saved.evaluated_at)).toBeGreaterThanOrEqual(
        Date.parse(saved.body.saved.evaluated_at)
      )
      // refetching is free: the same calls are left, and shown
      expect(again.headers.get("x-routing-quota-remaining")).toBe(left)
    } finally {
      await world.rt.runPromise(
        applyChanges(
          changeScript("saved-src", [
            [closure],
            [observation("saved-other", { jurisdiction: "NE", latitude: 41.5, longitude: -97 })]
          ]).slice(-2)
        )
      )
    }
  })

  it("reads the map again only when a change touched the route: a restriction moved away or retired stops warning", async () => {
    const routed = await pro()("/routing/route", json("POST", { origin: W, destination: E, truck }))
    const coords: Array<[number, number]> = routed.body.routes[0].geometry.coordinates
    const [lng, lat] = coords[Math.floor(coords.length / 2)]
    const id = routed.body.route_id
    const at = new Date()
    const onRoute = feature("cache-ban", {
      jurisdiction: "NE",
      feature_type: "truck_restrictions",
      name: "Bridge works",
      latitude: lat,
      longitude: lng,
      properties: { restrictions: [{ type: "no-trucks", value: null, unit: null, lane: null }] }
    })
    const first = diffFeaturePoll({
      source: "cache-feat",
      polledAt: at,
      now: at,
      records: [onRoute],
      presentIds: [],
      prev: new Map()
    })
    await world.rt.runPromise(applyChanges(first.changes))
    const warned = (await pro()(`/routing/route/saved/${id}`)).body.routes[0].warnings
    expect(warned.map((w: { type: string; source_id: string }) => [w.type, w.source_id])).toEqual([
      ["truck_restriction", "cache-ban"]
    ])
    // the same refetch again reads nothing new and answers the same (arrival times move with the clock)
    const still = (await pro()(`/routing/route/saved/${id}`)).body.routes[0].warnings
    const fixed = (ws: Array<Record<string, unknown>>) => ws.map(({ projected_arrival_time: _t, ...w }) => w)
    expect(fixed(still)).toEqual(fixed(warned))
    // moved 100 km north: its old cell is touched too, so the route sees it leave
    const later = new Date(at.getTime() + 60_000)
    const moved = diffFeaturePoll({
      source: "cache-feat",
      polledAt: later,
      now: later,
      records: [{ ...onRoute, latitude: lat + 0.9 }],
      presentIds: [],
      prev: new Map(first.upserts)
    })
    await world.rt.runPromise(applyChanges(moved.changes))
    expect((await pro()(`/routing/route/saved/${id}`)).body.routes[0].warnings).toEqual([])
    // back on the route, then retired
    const back = diffFeaturePoll({
      source: "cache-feat",
      polledAt: later,
      now: new Date(later.getTime() + 60_000),
      records: [onRoute],
      presentIds: [],
      prev: new Map(moved.upserts)
    })
    await world.rt.runPromise(applyChanges(back.changes))
    expect((await pro()(`/routing/route/saved/${id}`)).body.routes[0].warnings).toHaveLength(1)
    const gone = diffFeaturePoll({
      source: "cache-feat",
      polledAt: later,
      now: new Date(later.getTime() + 120_000),
      records: [{ ...onRoute, is_active: false }],
      presentIds: [],
      prev: new Map(back.upserts)
    })
    await world.rt.runPromise(applyChanges(gone.changes))
    expect((await pro()(`/routing/route/saved/${id}`)).body.routes[0].warnings).toEqual([])
  })

  it("gives a saved route's distance per state as CSV for fuel-tax reports, tolled part included, to its owner only", async () => {
    // W → the end of the tolled stub east of E: half of I-1 in AA, the other half and the toll road in BB
    const call = await pro()(
      "/routing/route",
      json("POST", { origin: W, destination: { lat: 40.0, lng: -98.9 }, truck, include: ["mileage_by_state"] })
    )
    expect(call.status).toBe(200)
    const id = call.body.route_id as string
    const byState = call.body.routes[0].summary.mileage_by_state as Array<{ jurisdiction: string; distance_m: number }>
    expect(byState.map((m) => m.jurisdiction)).toEqual(["BB", "AA"])
    const res = await pro()(`/routing/route/saved/${id}/mileage.csv`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8")
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${id}-mileage.csv"`)
    const [header, ...rows] = (res.body as string)
      .trim()
      .split("\r\n")
      .map((l) => l.split(","))
    expect(header).toEqual(["state", "miles", "km", "toll_miles"])
    expect(rows.map((r) => r[0])).toEqual(["BB", "AA"])
    for (const [state, miles, km] of rows) {
      const m = byState.find((x) => x.jurisdiction === state)!.distance_m
      expect(Number(km)).toBeCloseTo(m / 1000, 2)
      expect(Number(miles)).toBeCloseTo(m / 1609.344, 1)
    }
    // the toll stub: 0.1° of longitude at 40° N, all of it in BB
    expect(Number(rows[0][3])).toBeCloseTo(8_517.7 / 1609.344, 1)
    expect(rows[1][3]).toBe("0.00")
    expect((await other(`/routing/route/saved/${id}/mileage.csv`)).status).toBe(404)
  })

  it("answers origin = destination as a LineString of two positions, the same place", async () => {
    const res = await pro()(
      "/routing/route",
      json("POST", { origin: W, destination: W, truck, include: ["mileage_by_state"] })
    )
    expect(res.status).toBe(200)
    const [r] = res.body.routes
    expect(r.geometry.type).toBe("LineString")
    expect(r.geometry.coordinates).toEqual([
      [-100, 40],
      [-100, 40]
    ])
    expect([r.summary.distance_m, r.summary.duration_s]).toEqual([0, 0])
    expect(r.summary.mileage_by_state).toEqual([{ jurisdiction: "AA", distance_m: 0, distance_mi: 0 }])
    // the saved copy reads back the same
    const saved = await pro()(`/routing/route/saved/${res.body.route_id}`)
    expect(saved.status).toBe(200)
    expect(saved.body.routes[0].geometry.coordinates).toEqual([
      [-100, 40],
      [-100, 40]
    ])
  })

  it("lets only the owner read, persist or delete it", async () => {
    const id = await routeOf()
    expect((await other(`/routing/route/saved/${id}`)).status).toBe(404)
    expect((await other(`/routing/route/saved/${id}/persist`, json("POST", {}))).status).toBe(404)
    expect((await other(`/routing/route/saved/${id}`, json("DELETE"))).status).toBe(404)
    expect((await pro()(`/routing/route/saved/${id}`)).status).toBe(200)
    expect((await pro()("/routing/route/saved/rte_000000000000000000000000")).status).toBe(404)
  })

  it("forgets an unpersisted route after its 30 minutes, and keeps a persisted one", async () => {
    const temporary = await routeOf()
    const kept = await routeOf()
    const persisted = await pro()(`/routing/route/saved/${kept}/persist`, json("POST", { monitor: false }))
    expect(persisted.status).toBe(200)
    expect(persisted.body).toMatchObject({ route_id: kept, state: "persisted", monitored: false })
    // both now 31 minutes old
    await sql(
      (s) =>
        s`UPDATE saved_routes SET created_at = created_at - interval '31 minutes', expires_at = expires_at - interval '31 minutes' WHERE id IN (${temporary}, ${kept})`
    )
    const gone = await pro()(`/routing/route/saved/${temporary}`)
    expect(gone.status).toBe(404)
    expect(gone.body.error).toContain("30 minutes")
    expect((await pro()(`/routing/route/saved/${temporary}/persist`, json("POST", {}))).status).toBe(404)
    const still = await pro()(`/routing/route/saved/${kept}`)
    expect(still.status).toBe(200)
    expect(still.body.saved).toMatchObject({ state: "persisted", expires_at: null, monitored: false })
    // the monitor's pass drops expired answers from the table
    const purged = await world.rt.runPromise(purgeExpiredRoutes(Date.now()))
    expect(purged).toBeGreaterThanOrEqual(1)
    expect(
      await sql((s) => s<{ id: string }>`SELECT id FROM saved_routes WHERE id IN (${temporary}, ${kept})`)
    ).toEqual([{ id: kept }])
    expect((await pro()(`/routing/route/saved/${kept}`, json("DELETE"))).status).toBe(204)
  })

  it("counts persisted routes against the plan's slots: full is 403 saved_route_slots_full, deleting frees one", async () => {
    const call = await keyFor("pro", "slots@example.com")
    const [a, b, c] = [await routeOf(call), await routeOf(call), await routeOf(call)]
    expect((await call(`/routing/route/saved/${a}/persist`, json("POST", {}))).body.slots).toEqual({
      used: 1,
      limit: 2
    })
    expect((await call(`/routing/route/saved/${b}/persist`, json("POST", {}))).body.slots).toEqual({
      used: 2,
      limit: 2
    })
    // persisting again keeps its slot
    const again = await call(`/routing/route/saved/${a}/persist`, json("POST", { monitor: false }))
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ monitored: false, slots: { used: 2, limit: 2 } })
    const full = await call(`/routing/route/saved/${c}/persist`, json("POST", {}))
    expect(full.status).toBe(403)
    expect(full.body.code).toBe("saved_route_slots_full")
    expect(full.body.error).toContain("all 2 saved-route slots are in use")
    const list = await call("/routing/route/saved")
    expect(list.body.slots).toEqual({ used: 2, limit: 2 })
    expect(list.body.data.map((r: { route_id: string }) => r.route_id)).toEqual([a, b])
    expect(list.body.data[0].summary).toMatchObject({ origin: W, destination: E })
    expect((await call(`/routing/route/saved/${a}`, json("DELETE"))).status).toBe(204)
    const now = await call(`/routing/route/saved/${c}/persist`, json("POST", {}))
    expect(now.status).toBe(200)
    expect(now.body.slots).toEqual({ used: 2, limit: 2 })
    // the Free trial has no slots at all
    const free = api(world.base, world.keys.free)
    const trial = await routeOf(free)
    const refused = await free(`/routing/route/saved/${trial}/persist`, json("POST", {}))
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe("saved_route_slots_full")
  })

  it("gives the last slot to exactly one of two persists racing for it", async () => {
    for (let round = 0; round < 5; round++) {
      const call = await keyFor("enterprise", `race-${round}@example.com`)
      const [x, y] = [await routeOf(call), await routeOf(call)]
      const answers = await Promise.all(
        [x, y].map((id) => call(`/routing/route/saved/${id}/persist`, json("POST", {})))
      )
      expect(answers.map((a) => a.status).sort()).toEqual([200, 403])
      expect((await call("/routing/route/saved")).body.slots).toEqual({ used: 1, limit: 1 })
    }
  })

  it("refuses bad ids and bodies with a 400", async () => {
    const id = await routeOf()
    const bad = await pro()(`/routing/route/saved/${id}/persist`, json("POST", { monitor: "yes" }))
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain("monitor")
    expect((await pro()(`/routing/route/saved/${"x".repeat(300)}`)).status).toBe(400)
  })
})
