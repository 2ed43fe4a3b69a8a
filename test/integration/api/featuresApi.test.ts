import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import type { FeatureObservation } from "../../../shared/domain/Feature.js"
import { feature } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

const env = makeTestEnv()
const build = (onListen: (port: number) => void) =>
  ManagedRuntime.make(ApiServerLive({ port: 0, onListen }).pipe(Layer.provideMerge(env.layer)))
let rt: ReturnType<typeof build>
let call: ReturnType<typeof api>
let base = ""

const KM_PER_DEG = (Math.PI * 6371.0088) / 180
const center = { lat: 49.0, lng: -123.0 }
// a 40 km restriction running north from 30 km south of the center: its middle is 10 km south,
// its far end 30 km south; a 5 km radius around the center only touches its northern part
const line = {
  type: "LineString",
  coordinates: [
    [-123.0, center.lat - 30 / KM_PER_DEG],
    [-123.0, center.lat + 2 / KM_PER_DEG]
  ]
}

const fixtures: Array<FeatureObservation> = [
  feature("cam-near", { ...center, latitude: center.lat + 3 / KM_PER_DEG }),
  feature("cam-far", { ...center, latitude: center.lat + 8 / KM_PER_DEG }),
  feature("cam-off", { ...center, latitude: center.lat + 1 / KM_PER_DEG, is_active: false }),
  feature("wr-line", {
    feature_type: "weight_restrictions",
    latitude: center.lat - 14 / KM_PER_DEG,
    longitude: -123.0,
    geometry: line
  }),
  feature("park", { feature_type: "truck_parking", latitude: 47.6, longitude: -122.3, jurisdiction: "WA" }),
  // time-bounded: scheduled windows for the window filters
  feature("fc-nov", {
    feature_type: "future_construction",
    start_time: "2026-11-10T00:00:00.000Z",
    end_time: "2026-11-20T00:00:00.000Z"
  }),
  feature("fc-est", {
    feature_type: "future_construction",
    start_time: "2026-11-01T00:00:00.000Z",
    estimated_start_time: "2026-12-05T00:00:00.000Z",
    end_time: "2026-12-20T00:00:00.000Z"
  }),
  feature("fc-open", { feature_type: "future_construction", start_time: "2026-10-01T00:00:00.000Z" }),
  feature("fc-nodates", { feature_type: "future_construction" }),
  ...Array.from({ length: 10_050 }, (_, i) =>
    feature(`bulk-${i}`, {
      feature_type: "signs",
      latitude: 40 + (i % 100) / 100,
      longitude: -100 - Math.floor(i / 100) / 100
    })
  )
]

beforeAll(async () => {
  let port = 0
  rt = build((p) => (port = p))
  await rt.runtime()
  const at = new Date(Date.UTC(2026, 10, 1))
  const { changes } = diffFeaturePoll({
    source: "fa",
    polledAt: at,
    now: at,
    records: fixtures,
    presentIds: [],
    prev: new Map()
  })
  for (let i = 0; i < changes.length; i += 2000) await rt.runPromise(applyChanges(changes.slice(i, i + 2000)))
  const { key } = await rt.runPromise(createKey({ plan: "enterprise", email: "features@example.com" }))
  base = `http://127.0.0.1:${port}/api/v1`
  call = api(base, key)
}, 120_000)
afterAll(async () => {
  await rt?.dispose()
  await env.cleanup()
})

const ids = (r: { body: { data: Array<{ source_id: string }> } }) => r.body.data.map((f) => f.source_id).sort()

describe("GET /features", () => {
  it("needs a type or a group", async () => {
    const r = await call("/features")
    expect(r.status).toBe(400)
    expect(r.body.error).toMatch(/type or group is required/)
  })

  it("selects by type and by group, with every field of SPEC §2.2", async () => {
    const cams = await call("/features?type=cameras")
    expect(ids(cams)).toEqual(["cam-far", "cam-near", "cam-off"])
    expect(Object.keys(cams.body.data[0]).sort()).toEqual([
      "description",
      "direction",
      "end_time",
      "estimated_end_time",
      "estimated_start_time",
      "feature_type",
      "geometry",
      "has_details",
      "id",
      "is_active",
      "jurisdiction",
      "last_updated",
      "latitude",
      "longitude",
      "name",
      "properties",
      "road_name",
      "source",
      "source_id",
      "start_time"
    ])
    expect(ids(await call("/features?group=imagery&active=true"))).toEqual(["cam-far", "cam-near"])
    expect(ids(await call("/features?group=trucking"))).toEqual(["park", "wr-line"])
    expect(ids(await call("/features?group=trucking&type=truck_parking"))).toEqual(["park"])
  })

  it("finds a line anywhere along its geometry by radius and by bounding box", async () => {
    const r = await call(`/features?group=trucking&lat=${center.lat}&lng=${center.lng}&radius_km=5`)
    expect(ids(r)).toEqual(["wr-line"])
    const cams = await call(`/features?type=cameras&lat=${center.lat}&lng=${center.lng}&radius_km=5`)
    expect(ids(cams)).toEqual(["cam-near", "cam-off"])
    // the spatial statement reads its bookkeeping columns (seq, _total) too: none of them is shown
    expect(Object.keys(cams.body.data[0]).sort()).toEqual(
      Object.keys((await call("/features?type=cameras")).body.data[0]).sort()
    )
    const boxNorth = await call(
      `/features?type=weight_restrictions&bbox=-123.1,${center.lat - 0.01},-122.9,${center.lat + 0.01}`
    )
    expect(ids(boxNorth)).toEqual(["wr-line"])
    const away = await call(`/features?type=weight_restrictions&lat=${center.lat}&lng=-122.8&radius_km=5`)
    expect(ids(away)).toEqual([])
    // the cell-index path (place only) and the row path (place plus other filters) agree
    for (const q of [
      `group=trucking&lat=${center.lat}&lng=${center.lng}&radius_km=30`,
      `type=cameras&bbox=-123.1,48.9,-122.9,49.2`
    ]) {
      const fast = await call(`/features?${q}`)
      const full = await call(`/features?${q}&jurisdiction=BC&starts_after=1900-01-01&ends_after=1900-01-01`)
      const viaRows = await call(`/features?${q}&jurisdiction=BC`)
      expect(ids(viaRows)).toEqual(ids(fast))
      expect(viaRows.body.total).toBe(fast.body.total)
      void full
    }
  })

  it("refuses a group radius above 200 km and allows any radius for one type", async () => {
    expect((await call(`/features?group=imagery&lat=49&lng=-123&radius_km=201`)).status).toBe(400)
    expect((await call(`/features?type=cameras&lat=49&lng=-123&radius_km=5000`)).status).toBe(200)
  })

  it("applies the window filters with the estimated-time fallback and the open-ended rule", async () => {
    const f = (qs: string) => call(`/features?type=future_construction&${qs}`).then(ids)
    expect(await f("starts_after=2026-11-05")).toEqual(["fc-est", "fc-nov"]) // fc-est by its estimated start
    expect(await f("starts_before=2026-11-05")).toEqual(["fc-open"])
    expect(await f("ends_after=2026-11-25")).toEqual(["fc-est", "fc-open"]) // open-ended always matches ends_after
    expect(await f("ends_before=2026-12-31T00:00:00Z")).toEqual(["fc-est", "fc-nov"]) // never the open-ended one
    // overlap with a period: starts_before its end and ends_after its start
    expect(await f("starts_before=2026-11-15&ends_after=2026-11-12")).toEqual(["fc-nov", "fc-open"])
    expect((await call("/features?type=future_construction&starts_after=yesterday")).status).toBe(400)
  })

  it("counts total up to 10,000 and keeps has_more exact beyond", async () => {
    const first = await call("/features?type=signs&limit=5000")
    expect(first.body).toMatchObject({ total: 10_000, has_more: true })
    const deep = await call("/features?type=signs&limit=5000&offset=10000")
    expect(deep.body.data).toHaveLength(50)
    expect(deep.body.has_more).toBe(false)
    // the same rows through the cursor, to the end
    let cursor = first.body.next_cursor
    let seen = first.body.data.length
    while (cursor) {
      const r = await call(`/features?type=signs&limit=5000&cursor=${cursor}`)
      seen += r.body.data.length
      cursor = r.body.next_cursor
    }
    expect(seen).toBe(10_050)
  })

  it("answers unknown types and groups with warnings and suggestions", async () => {
    const r = await call("/features?type=camras")
    expect(r.status).toBe(200)
    expect(r.body.warnings[0]).toMatchObject({ code: "unknown_type", value: "CAMRAS", did_you_mean: ["cameras"] })
    const g = await call("/features?group=imagry")
    expect(g.body.total).toBe(0)
    expect(g.body.warnings[0]).toMatchObject({ value: "IMAGRY", did_you_mean: ["imagery"] })
  })
})

describe("feature metadata", () => {
  it("lists the types that hold data with counts", async () => {
    const r = await call("/features/types")
    const cams = r.body.find((t: { type: string }) => t.type === "cameras")
    expect(cams).toEqual({ type: "cameras", count: 3, active_count: 2 })
  })

  it("lists 16 groups, imagery and trucking as SPEC fixes them", async () => {
    const r = await call("/features/groups")
    expect(r.body).toHaveLength(16)
    const byId = Object.fromEntries(r.body.map((g: { id: string }) => [g.id, g]))
    expect(byId.imagery.feature_types).toEqual(["cameras"])
    expect(byId.trucking.feature_types.sort()).toEqual([
      "bridge_clearances",
      "freight_corridors",
      "inspection_stations",
      "truck_parking",
      "truck_rest_areas",
      "truck_restrictions",
      "truck_routes",
      "weigh_stations",
      "weight_restrictions"
    ])
    for (const g of r.body)
      expect(Object.keys(g).sort()).toEqual(["description", "feature_types", "id", "name", "sort_order"])
  })
})
