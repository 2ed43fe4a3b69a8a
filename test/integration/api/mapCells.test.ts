import { Layer, ManagedRuntime } from "effect"
import { cellToParent, getResolution } from "h3-js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * GET /map/cells over real Postgres: what a view holds, counted per H3 cell, with the same
 * filters and plan rules as the lists it stands in for.
 */
const env = makeTestEnv()
const build = (onListen: (port: number) => void) =>
  ManagedRuntime.make(ApiServerLive({ port: 0, onListen }).pipe(Layer.provideMerge(env.layer)))
let rt: ReturnType<typeof build>
let call: ReturnType<typeof api>
let free: ReturnType<typeof api>

// 40 events around Manhattan (one major), 6 in Des Moines (one critical closure), one in Albany that ends
const ny = Array.from({ length: 40 }, (_, i) =>
  observation(`ny-${i}`, {
    latitude: 40.7 + (i % 8) * 0.01,
    longitude: -74.0 + Math.floor(i / 8) * 0.01,
    severity: i === 7 ? "major" : "minor"
  })
)
const ia = Array.from({ length: 6 }, (_, i) =>
  observation(`ia-${i}`, {
    jurisdiction: "IA",
    latitude: 41.59 + i * 0.002,
    longitude: -93.62,
    type: i === 0 ? "closure" : "construction",
    severity: i === 0 ? "critical" : "moderate"
  })
)
const ending = observation("alb-1", { latitude: 42.65, longitude: -73.75 })
const US = "-130,20,-60,55"

beforeAll(async () => {
  let port = 0
  rt = build((p) => (port = p))
  await rt.runtime()
  await rt.runPromise(
    applyChanges(
      changeScript("map-src", [
        [...ny, ...ia, ending],
        [...ny, ...ia]
      ])
    )
  )
  const at = new Date(Date.UTC(2026, 10, 1))
  const line = {
    type: "LineString",
    coordinates: [
      [-93.6, 41.0],
      [-93.6, 42.5]
    ]
  }
  const features = [
    ...Array.from({ length: 12 }, (_, i) => feature(`cam-${i}`, { latitude: 49 + i * 0.001, longitude: -123 })),
    feature("cam-off", { latitude: 49.2, longitude: -123, is_active: false }),
    feature("route", {
      feature_type: "truck_routes",
      jurisdiction: "IA",
      latitude: 41.0,
      longitude: -93.6,
      geometry: line
    })
  ]
  const { changes } = diffFeaturePoll({
    source: "map-ft",
    polledAt: at,
    now: at,
    records: features,
    presentIds: [],
    prev: new Map()
  })
  await rt.runPromise(applyChanges(changes))
  const base = `http://127.0.0.1:${port}/api/v1`
  call = api(base, (await rt.runPromise(createKey({ plan: "enterprise", email: "map@example.com" }))).key)
  free = api(base, (await rt.runPromise(createKey({ plan: "free", email: "map-free@example.com" }))).key)
}, 60_000)
afterAll(async () => {
  await rt?.dispose()
  await env.cleanup()
})

const sum = (cells: Array<{ count: number }>) => cells.reduce((s, c) => s + c.count, 0)

describe("GET /map/cells", () => {
  it("counts the events of a view per cell, at a resolution fit for the zoom, as many as /events lists", async () => {
    for (const [zoom, res] of [
      [3, 3],
      [6, 5],
      [9, 7]
    ] as const) {
      const r = await call(`/map/cells?layer=events&bbox=${US}&zoom=${zoom}`)
      expect(r.status).toBe(200)
      expect(r.body.resolution).toBe(res)
      expect(r.body.total).toBe(46)
      expect(sum(r.body.data)).toBe(46)
      for (const c of r.body.data) expect(getResolution(c.cell)).toBe(res)
    }
    const listed = await call(`/events?bbox=${US}&limit=1`)
    expect(listed.body.total).toBe(46)
    // two areas at state scale: New York's cell and Des Moines'
    const coarse = await call(`/map/cells?layer=events&bbox=${US}&zoom=3`)
    const byCount = [...coarse.body.data].sort((a: any, b: any) => b.count - a.count)
    expect(byCount.map((c: any) => c.count)).toEqual([40, 6])
    expect(byCount[0]).toMatchObject({ severity: "major", top_type: "incident" })
    expect(byCount[1]).toMatchObject({ severity: "critical", top_type: "construction" })
    // each cell sits at the mean position of its events
    expect(byCount[1].latitude).toBeCloseTo(41.595, 3)
    expect(byCount[1].longitude).toBeCloseTo(-93.62, 3)
    // finer cells nest in the coarse ones
    const fine = await call(`/map/cells?layer=events&bbox=${US}&zoom=9`)
    expect(new Set(fine.body.data.map((c: any) => cellToParent(c.cell, 3)))).toEqual(
      new Set(coarse.body.data.map((c: any) => c.cell))
    )
  })

  it("applies the list's filters: type, severity, jurisdiction, status, and the box", async () => {
    expect((await call(`/map/cells?layer=events&bbox=${US}&zoom=3&type=closure`)).body.total).toBe(1)
    expect((await call(`/map/cells?layer=events&bbox=${US}&zoom=3&severity=major,critical`)).body.total).toBe(2)
    expect((await call(`/map/cells?layer=events&bbox=${US}&zoom=3&jurisdiction=IA`)).body.total).toBe(6)
    expect((await call(`/map/cells?layer=events&bbox=${US}&zoom=3&status=archived`)).body.total).toBe(1)
    expect((await call(`/map/cells?layer=events&bbox=-94,41,-93,42&zoom=6`)).body.total).toBe(6)
    const unknown = await call(`/map/cells?layer=events&bbox=${US}&zoom=3&type=meteor`)
    expect(unknown.status).toBe(200)
    expect(unknown.body.warnings[0].code).toBe("unknown_type")
  })

  it("counts features of groups from the cell index: a line in every cell it covers, inactive ones only when asked", async () => {
    const cams = await call(`/map/cells?layer=features&group=imagery&bbox=${US}&zoom=3`)
    expect(cams.status).toBe(200)
    expect(cams.body.total).toBe(13)
    expect((await call(`/map/cells?layer=features&group=imagery&active=true&bbox=${US}&zoom=3`)).body.total).toBe(12)
    const route = await call(`/map/cells?layer=features&group=trucking&bbox=${US}&zoom=6`)
    // 165 km of line crosses many resolution-5 cells; each counts it
    expect(route.body.data.length).toBeGreaterThan(10)
    expect(route.body.data.every((c: any) => c.top_type === "truck_routes" && c.severity === null)).toBe(true)
    const bad = await call(`/map/cells?layer=features&group=nope&bbox=${US}&zoom=3`)
    expect(bad.status).toBe(200)
    expect(bad.body).toMatchObject({ total: 0, data: [] })
    expect(bad.body.warnings[0].message).toContain('unknown feature group "nope"')
  })

  it("keeps the plan's rules: Free names a jurisdiction, sees the delay, and no inactive features", async () => {
    const needs = await free(`/map/cells?layer=events&bbox=${US}&zoom=3`)
    expect(needs.status).toBe(403)
    expect(needs.body.code).toBe("plan_jurisdiction")
    const r = await free(`/map/cells?layer=events&bbox=${US}&zoom=3&jurisdiction=IA`)
    expect(r.status).toBe(200)
    expect(r.body.warnings.map((w: any) => w.code)).toContain("data_delayed")
    const cams = await free(`/map/cells?layer=features&group=imagery&active=false&bbox=${US}&zoom=3&jurisdiction=BC`)
    expect(cams.status).toBe(403)
  })

  it("answers bad input with 400 and a clear error", async () => {
    for (const [q, says] of [
      [`layer=events&zoom=3`, "bbox"],
      [`layer=events&bbox=${US}`, "zoom"],
      [`layer=roads&bbox=${US}&zoom=3`, "layer"],
      [`layer=events&bbox=${US}&zoom=99`, "zoom"],
      [`layer=events&bbox=1,2,3&zoom=3`, "bbox"]
    ]) {
      const r = await call(`/map/cells?${q}`)
      expect(r.status, q).toBe(400)
      expect(r.body.error, q).toContain(says)
    }
  })
})
