import * as turf from "@turf/turf"
import fc from "fast-check"
import type { Feature, LineString } from "geojson"
import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { feature } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/** GET /truck/corridor (SPEC §4.3): great-circle band, types, active window, height, order, limits, gate. */
const env = makeTestEnv()
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer))
)
const keys: Record<string, string> = {}
const call = (plan: string) => (path: string) => api(`http://127.0.0.1:${port}/api/v1`, keys[plan])(path)

const FROM = [-100, 45]
const TO = [-99, 45]
const gc = turf.greatCircle(FROM, TO, { npoints: 100 }) as Feature<LineString>
const mid = turf.along(gc, turf.length(gc) / 2).geometry.coordinates
const offset = (km: number, bearing = 0) => turf.destination(mid, km, bearing).geometry.coordinates
const at = (c: Array<number>) => ({ longitude: c[0], latitude: c[1] })
const day = 86_400_000
const iso = (ms: number) => new Date(ms).toISOString()

const records = [
  feature("park-in", { feature_type: "truck_parking", jurisdiction: "SD", ...at(offset(4.9)) }),
  feature("park-out", { feature_type: "truck_parking", jurisdiction: "SD", ...at(offset(5.1)) }),
  feature("park-nd", {
    feature_type: "truck_parking",
    jurisdiction: "ND",
    ...at(turf.destination(FROM, 1, 0).geometry.coordinates)
  }),
  feature("past-end", { feature_type: "truck_parking", jurisdiction: "SD", longitude: -98.9, latitude: 45 }),
  feature("low-bridge", {
    feature_type: "bridge_clearances",
    jurisdiction: "SD",
    ...at(offset(0.5, 180)),
    properties: { min_vertical_clearance_m: 3.9 }
  }),
  feature("tall-bridge", {
    feature_type: "bridge_clearances",
    jurisdiction: "SD",
    ...at(offset(1, 180)),
    properties: { min_vertical_clearance_m: 4.5 }
  }),
  feature("crossing", {
    feature_type: "weight_restrictions",
    jurisdiction: "SD",
    longitude: -99.5,
    latitude: 44.8,
    geometry: {
      type: "LineString",
      coordinates: [
        [-99.5, 44.8],
        [-99.5, 45.2]
      ]
    }
  }),
  feature("inactive", { feature_type: "truck_restrictions", jurisdiction: "SD", ...at(mid), is_active: false }),
  feature("future", {
    feature_type: "weight_restrictions",
    jurisdiction: "SD",
    ...at(mid),
    start_time: iso(Date.now() + 30 * day)
  }),
  feature("ended", {
    feature_type: "weight_restrictions",
    jurisdiction: "SD",
    ...at(mid),
    start_time: iso(Date.now() - 30 * day),
    end_time: iso(Date.now() - 2 * day)
  }),
  feature("today", {
    feature_type: "weight_restrictions",
    jurisdiction: "SD",
    ...at(offset(2)),
    start_time: iso(Date.now() - day),
    end_time: iso(Date.now() + day)
  }),
  feature("camera", { feature_type: "cameras", jurisdiction: "SD", ...at(mid) })
]

beforeAll(async () => {
  await rt.runtime()
  const now = new Date()
  await rt.runPromise(
    applyChanges(
      diffFeaturePoll({ source: "corr", polledAt: now, now, presentIds: [], prev: new Map(), records }).changes
    )
  )
  for (const plan of ["free", "starter", "pro"])
    keys[plan] = (await rt.runPromise(createKey({ plan, email: `${plan}@truck.example.com` }))).key
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const Q = `from_lat=${FROM[1]}&from_lng=${FROM[0]}&to_lat=${TO[1]}&to_lng=${TO[0]}`
const ids = (body: any) => body.data.map((f: any) => f.source_id)

describe("GET /truck/corridor", () => {
  it("returns corridor types in force today within the great-circle band, ordered along the corridor", async () => {
    const r = await call("pro")(`/truck/corridor?${Q}`)
    expect(r.status).toBe(200)
    expect(r.body.corridor).toEqual({
      from: [45, -100],
      to: [45, -99],
      buffer_km: 5,
      distance_km: expect.closeTo(78.7, 0)
    })
    expect(new Set(ids(r.body))).toEqual(
      new Set(["park-nd", "crossing", "today", "park-in", "low-bridge", "tall-bridge"])
    )
    expect(r.body.total).toBe(6)
    expect(r.body.limit).toBe(500)
    const dist = Object.fromEntries(r.body.data.map((f: any) => [f.source_id, f.properties._distance_km]))
    // a decimal string, as SPEC §2.2 types it
    expect(Object.values(dist).every((d) => typeof d === "string" && /^\d+\.\d{3}$/.test(d as string))).toBe(true)
    expect(Number(dist["park-in"])).toBeCloseTo(4.9, 1)
    expect(dist.crossing).toBe("0.000")
    // along the corridor from `from`: the parking 1 km from the start comes first
    expect(ids(r.body)[0]).toBe("park-nd")
  })

  it("filters clearances below the vehicle height, narrows to one jurisdiction, widens with buffer_km", async () => {
    const tall = await call("pro")(`/truck/corridor?${Q}&height=4.1`)
    expect(ids(tall.body)).not.toContain("tall-bridge")
    expect(ids(tall.body)).toContain("low-bridge")
    expect(ids((await call("pro")(`/truck/corridor?${Q}&jurisdiction=ND`)).body)).toEqual(["park-nd"])
    const wide = await call("pro")(`/truck/corridor?${Q}&buffer_km=12`)
    expect(ids(wide.body)).toEqual(expect.arrayContaining(["park-out", "past-end"]))
    // ordered by position along the corridor: the one beyond the far end comes last
    expect(ids(wide.body)[0]).toBe("park-nd")
    expect(ids(wide.body).at(-1)).toBe("past-end")
    const page = await call("pro")(`/truck/corridor?${Q}&limit=2`)
    expect(page.body.data).toHaveLength(2)
    expect(page.body.total).toBe(6)
    expect((await call("pro")(`/truck/corridor?${Q}&limit=5000`)).body.limit).toBe(2000)
  })

  it("answers 400 for weight, a buffer above 50 km, a missing end and two jurisdictions", async () => {
    for (const bad of [
      `${Q}&weight=36`,
      `${Q}&buffer_km=51`,
      `from_lat=45&from_lng=-100&to_lng=-99`,
      `${Q}&jurisdiction=SD,ND`,
      `${Q}&height=abc`
    ]) {
      const r = await call("pro")(`/truck/corridor?${bad}`)
      expect(r.status, bad).toBe(400)
      expect(typeof r.body.error).toBe("string")
    }
    expect((await call("pro")(`/truck/corridor?${Q}&weight=36`)).body.error).toMatch(/weight/)
  })

  it("is Pro and above: plan_truck with the full body below", async () => {
    for (const plan of ["free", "starter"]) {
      const r = await call(plan)(`/truck/corridor?${Q}&jurisdiction=SD`)
      expect(r.status).toBe(403)
      expect(r.body).toMatchObject({ code: "plan_truck", plan, docs_url: "/docs/plans#plan_truck" })
    }
  })

  it("any valid corridor on the globe answers 200 (antimeridian, poles, zero length)", async () => {
    const lat = fc.double({ min: -90, max: 90, noNaN: true })
    const lng = fc.double({ min: -180, max: 180, noNaN: true })
    const fixed = [
      [89.9, 0, 89.9, 180],
      [45, 179.9, 45, -179.9],
      [45, -100, 45, -100],
      [-90, 0, 90, 0]
    ]
    for (const [a, b, c, d] of fixed) {
      const r = await call("pro")(`/truck/corridor?from_lat=${a}&from_lng=${b}&to_lat=${c}&to_lng=${d}&buffer_km=50`)
      expect(r.status, `${a},${b} → ${c},${d}`).toBe(200)
    }
    await fc.assert(
      fc.asyncProperty(lat, lng, lat, lng, fc.double({ min: 0.01, max: 50, noNaN: true }), async (a, b, c, d, buf) => {
        const r = await call("pro")(
          `/truck/corridor?from_lat=${a}&from_lng=${b}&to_lat=${c}&to_lng=${d}&buffer_km=${buf}`
        )
        expect(r.status, `${a},${b} → ${c},${d} ±${buf}`).toBe(200)
      }),
      { numRuns: 40 }
    )
  }, 60_000)

  it("has a GeoJSON variant: [lng, lat] geometries, the corridor as a foreign member", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/truck/corridor/geojson?${Q}`, {
      headers: { "X-API-Key": keys.pro }
    })
    expect(res.headers.get("content-type")).toMatch(/^application\/geo\+json/)
    const body = await res.json()
    expect(body.type).toBe("FeatureCollection")
    expect(body.corridor.buffer_km).toBe(5)
    const park = body.features.find((f: any) => f.properties.source_id === "park-in")
    expect(park.geometry.coordinates[0]).toBeCloseTo(mid[0], 3)
    expect(park.geometry.coordinates[1]).toBeGreaterThan(45)
    expect(typeof park.properties._distance_km).toBe("string")
    expect(Number(park.properties._distance_km)).toBeCloseTo(4.9, 1)
    expect(body.features.find((f: any) => f.properties.source_id === "crossing").geometry.type).toBe("LineString")
  })
})
