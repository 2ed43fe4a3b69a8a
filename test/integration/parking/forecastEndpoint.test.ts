import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { BUNDLED_PARKING_HISTORY } from "../../../infra/parking/bundledHistory.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyAnalytics } from "../../../pipeline/stages/analytics/applyAnalytics.js"
import { insertParkingRows } from "../../../pipeline/stages/analytics/parkingReadings.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import type { FeatureSnap } from "../../../pipeline/diff/FeatureDiffer.js"
import type { FeatureChange } from "../../../shared/domain/Change.js"
import type { FeatureObservation } from "../../../shared/domain/Feature.js"
import { latestModelInfo } from "../../../shared/parking/modelStore.js"
import { refitParkingModel } from "../../../shared/parking/refit.js"
import { feature } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * GET /features/{id}/forecast over a model fitted the service's way (the bundled history seeds an
 * empty store) and readings the analytics stage stored from polls, on real Postgres and HTTP.
 */
const env = makeTestEnv()
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer))
)
const keys: Record<string, string> = {}
const call = (plan: string) => (path: string) => api(`http://127.0.0.1:${port}/api/v1`, keys[plan])(path)
const ids: Record<string, string> = {}

// a real Illinois site of the bundled history, an Indiana one (published as a rest area), a lot
// the history never saw, and a camera
const lot = (available: number | string, trend = "steady") =>
  feature("IL00074IE011400005", {
    feature_type: "truck_parking",
    jurisdiction: "IL",
    name: "I-74 EB Rest Area",
    latitude: 40.2,
    longitude: -88.4,
    properties:
      typeof available === "number"
        ? { available, available_spots: available, capacity: 25, trend, trust_data: true }
        : { availability_text: available, capacity: 25, trust_data: true }
  })
const others: ReadonlyArray<FeatureObservation> = [
  feature("302", { feature_type: "rest_areas", jurisdiction: "IN", properties: { available: 14, capacity: 30 } }),
  feature("IL00099NEW", { feature_type: "truck_parking", jurisdiction: "IL", properties: { available: 3 } }),
  feature("cam-1", { feature_type: "cameras", jurisdiction: "IL" })
]

const NOW = Date.now()
let lastBatch: ReadonlyArray<FeatureChange> = []
beforeAll(async () => {
  await rt.runtime()
  // three hours of polls, 16 minutes apart: the lot drains from 20 free to "LOW"
  let prev = new Map<string, FeatureSnap>()
  const counts: Array<number | string> = [20, 19, 17, 16, 14, 12, 11, 9, 8, 6, 5, "LOW"]
  for (let i = 0; i < counts.length; i++) {
    const at = new Date(NOW - (counts.length - 1 - i) * 16 * 60_000)
    const d = diffFeaturePoll({
      source: "tpims-il",
      polledAt: at,
      now: at,
      presentIds: [],
      prev,
      records: [lot(counts[i]), ...others]
    })
    prev = new Map([...prev, ...d.upserts])
    lastBatch = d.changes
    await rt.runPromise(Effect.andThen(applyChanges(d.changes), applyAnalytics({ maxKm: 50, lateS: 900 })(d.changes)))
  }
  const rows = (await rt.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ id: string; source_id: string }>`SELECT id, source_id FROM features`
    )
  )) as Array<{ id: string; source_id: string }>
  for (const r of rows) ids[r.source_id] = r.id
  await rt.runPromise(refitParkingModel(BUNDLED_PARKING_HISTORY))
  for (const plan of ["free", "pro"])
    keys[plan] = (await rt.runPromise(createKey({ plan, email: `${plan}@forecast.example.com` }))).key
}, 120_000)
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

describe("the parking forecaster in the service", () => {
  it("stores each poll's count (and LOW) as the forecaster's history, once however often a batch is replayed", async () => {
    await rt.runPromise(applyAnalytics({ maxKm: 50, lateS: 900 })(lastBatch))
    const rows = (await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`SELECT site, available, low, capacity, trend FROM parking_readings ORDER BY site, at`
      )
    )) as Array<{ site: string; available: number | null; low: boolean; capacity: number | null; trend: string | null }>
    const il = rows.filter((r) => r.site === "IL:IL00074IE011400005")
    expect(il.map((r) => r.available)).toEqual([20, 19, 17, 16, 14, 12, 11, 9, 8, 6, 5, null])
    expect(il[il.length - 1]).toMatchObject({ low: true, capacity: 25 })
    expect(il[0].trend).toBe("STEADY")
    // the camera and the site's unchanged polls add nothing
    expect(new Set(rows.map((r) => r.site))).toEqual(new Set(["IL:IL00074IE011400005", "IN:302", "IL:IL00099NEW"]))
  })

  it("keeps a count polled again within five minutes once, and a changed count always", async () => {
    const t = NOW - 30 * 24 * 3_600_000
    const row = (minutes: number, available: number) => ({
      site: "IL:REPEAT",
      at: new Date(t + minutes * 60_000).toISOString(),
      available,
      low: false,
      capacity: 20,
      trend: null
    })
    // each poll its own batch, as a minute's polling writes them
    for (const [minute, count] of [
      [0, 5],
      [1, 5],
      [2, 6],
      [3, 6],
      [8, 6],
      [9, 6],
      [10, 7]
    ])
      await rt.runPromise(insertParkingRows([row(minute, count)]))
    const stored = (await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql<{
            at: string
            available: number
          }>`SELECT at, available FROM parking_readings WHERE site = 'IL:REPEAT' ORDER BY at`
      )
    )) as Array<{ at: string; available: number }>
    expect(stored.map((r) => [(Date.parse(r.at) - t) / 60_000, r.available])).toEqual([
      [0, 5],
      [2, 6],
      [8, 6],
      [10, 7]
    ])
  })

  it("fits at start from the bundled history while the store is young, and keeps the model in Postgres", async () => {
    const info = await rt.runPromise(latestModelInfo)
    expect(info).toMatchObject({ seeded: true })
    expect(info!.sites).toBeGreaterThanOrEqual(30)
    // fitted on the bundled July and on what the pipeline stored since
    expect(Date.parse(info!.data_until)).toBeGreaterThan(NOW - 3_600_000)
    expect(info!.readings).toBeGreaterThan(167_000)
  })
})

describe("GET /features/{id}/forecast", () => {
  it("forecasts a site every 15 minutes with p10 ≤ p50 ≤ p90 within its capacity, its measured error and the model's date", async () => {
    const r = await call("pro")(`/features/${ids.IL00074IE011400005}/forecast?hours=6`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body).toMatchObject({
      feature_id: ids.IL00074IE011400005,
      forecast_available: true,
      capacity: 25,
      latest_reading: { available: null, low: true },
      model: { seeded: true }
    })
    expect(r.body.points.length).toBeGreaterThanOrEqual(23)
    expect(r.body.points.length).toBeLessThanOrEqual(24)
    const times = r.body.points.map((p: { at: string }) => Date.parse(p.at))
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(15 * 60_000)
    expect(times[0] % (15 * 60_000)).toBe(0)
    for (const p of r.body.points) {
      expect(p.p10).toBeLessThanOrEqual(p.p50)
      expect(p.p50).toBeLessThanOrEqual(p.p90)
      expect(p.p90).toBeLessThanOrEqual(25)
      expect(p.p_full).toBeGreaterThanOrEqual(0)
      expect(p.p_full).toBeLessThanOrEqual(1)
    }
    expect(r.body.measured_error).toHaveLength(14)
    expect(r.body.measured_error[0]).toEqual({ horizon_h: 0.25, mae: expect.any(Number) })
    // a lot that just went LOW is more likely full in the next quarter hour than a day's typical
    expect(r.body.points[0].p50).toBeLessThan(10)
  })

  it("forecasts an Indiana site published as a rest area, and 12 hours by default", async () => {
    const r = await call("pro")(`/features/${ids["302"]}/forecast`)
    expect(r.status).toBe(200)
    expect(r.body.forecast_available).toBe(true)
    expect(r.body.points.length).toBeGreaterThanOrEqual(47)
  })

  it("says when a site has too little history, never a guess", async () => {
    const r = await call("pro")(`/features/${ids.IL00099NEW}/forecast`)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      forecast_available: false,
      reason: "this site has too little history to forecast: the forecaster needs 5 days of counts",
      points: [],
      measured_error: []
    })
  })

  it("answers 404 for a feature that is not a parking site and for an unknown id, 400 for hours out of range, a warning for a typo", async () => {
    const cam = await call("pro")(`/features/${ids["cam-1"]}/forecast`)
    expect(cam.status).toBe(404)
    expect(cam.body.error).toBe(`${ids["cam-1"]} is a cameras feature; forecasts are for truck-parking sites`)
    expect((await call("pro")(`/features/ft_nope/forecast`)).status).toBe(404)
    for (const h of ["0", "25", "1.5", "soon"]) {
      const bad = await call("pro")(`/features/${ids.IL00074IE011400005}/forecast?hours=${h}`)
      expect(bad.status, h).toBe(400)
      expect(bad.body.error).toContain("hours must be a whole number from 1 to 24")
    }
    // a typo is answered, with a warning naming the parameter meant
    const typo = await call("pro")(`/features/${ids.IL00074IE011400005}/forecast?hour=3`)
    expect(typo.status).toBe(200)
    expect(JSON.parse(typo.headers.get("x-warnings") ?? "[]")).toEqual([
      expect.objectContaining({ code: "unknown_parameter", value: "hour", did_you_mean: ["hours"] })
    ])
  })

  it("is a Pro feature, as truck data is", async () => {
    const r = await call("free")(`/features/${ids.IL00074IE011400005}/forecast`)
    expect(r.status).toBe(403)
    expect(r.body.code).toBe("plan_truck")
  })
})
