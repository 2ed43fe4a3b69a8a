import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

const env = makeTestEnv()
const build = (onListen: (port: number) => void) =>
  ManagedRuntime.make(ApiServerLive({ port: 0, onListen }).pipe(Layer.provideMerge(env.layer)))
let rt: ReturnType<typeof build>
let base = ""
const keys: Record<string, string> = {}

const KM_PER_DEG = (Math.PI * 6371.0088) / 180
const center = { lat: 40.75, lng: -73.99 }

// 30 NY events spread out, and a handful of specific ones to filter on
const fixtures = [
  ...Array.from({ length: 30 }, (_, i) => observation(`bulk-${i}`, { latitude: 41 + i * 0.01, longitude: -75 })),
  observation("near", {
    ...center,
    latitude: center.lat + 9.9 / KM_PER_DEG,
    type: "construction",
    sub_type: "Paving",
    cause: "roadwork",
    severity: "major"
  }),
  observation("far", {
    ...center,
    latitude: center.lat + 10.1 / KM_PER_DEG,
    type: "closure",
    cause: "accident",
    severity: "critical",
    affected_roads: ["100% Road_A"]
  }),
  observation("wz", {
    jurisdiction: "WZDX_NY",
    latitude: 42.1,
    longitude: -76.2,
    type: "construction",
    affected_roads: ["NY-17"]
  }),
  observation("city", {
    jurisdiction: "NYC",
    latitude: 40.6,
    longitude: -74.0,
    type: "special_event",
    cause: "special_event"
  }),
  observation("nj", {
    jurisdiction: "NJ",
    latitude: 40.2,
    longitude: -74.5,
    type: "weather",
    cause: "weather",
    affected_roads: ["I-95"]
  }),
  observation("gone", { jurisdiction: "NJ", latitude: 40.3, longitude: -74.4 })
]

beforeAll(async () => {
  let port = 0
  rt = build((p) => (port = p))
  await rt.runtime()
  const script = changeScript("api-src", [fixtures, fixtures.filter((o) => o.source_id !== "gone")])
  await rt.runPromise(applyChanges(script))
  for (const plan of ["free", "starter", "pro"]) {
    keys[plan] = (await rt.runPromise(createKey({ plan, email: `${plan}@example.com` }))).key
  }
  base = `http://127.0.0.1:${port}/api/v1`
})
afterAll(async () => {
  await rt?.dispose()
  await env.cleanup()
})

const pro = () => api(base, keys.pro)
const ids = (body: { data: Array<{ source_id: string }> }) => body.data.map((e) => e.source_id).sort()

describe("GET /events filters", () => {
  it("expands a state's primary code to its group and takes other codes literally", async () => {
    const group = await pro()("/events?jurisdiction=NY&limit=1000")
    expect(group.body.total).toBe(34)
    expect(ids(await pro()("/events?jurisdiction=WZDX_NY").then((r) => r.body))).toEqual(["wz"])
    expect(ids((await pro()("/events?jurisdiction=nyc,nj")).body)).toEqual(["city", "nj"])
  })

  it("filters by type, sub_type, cause across types, severity and road", async () => {
    expect(ids((await pro()("/events?type=construction")).body)).toEqual(["near", "wz"])
    expect(ids((await pro()("/events?sub_type=paving")).body)).toEqual(["near"])
    expect(ids((await pro()("/events?cause=accident&limit=1000")).body)).toHaveLength(32)
    expect(ids((await pro()("/events?severity=major,critical")).body)).toEqual(["far", "near"])
    expect(ids((await pro()("/events?road=i-9")).body)).toEqual(["nj"])
    // LIKE metacharacters in input are literal
    expect(ids((await pro()("/events?road=" + encodeURIComponent("100% Road_"))).body)).toEqual(["far"])
    expect(ids((await pro()("/events?road=" + encodeURIComponent("%"))).body)).toEqual(["far"])
  })

  it("shows active events by default and archived ones on request", async () => {
    expect(ids((await pro()("/events?status=archived")).body)).toEqual(["gone"])
    const all = await pro()("/events?status=active,archived&limit=1")
    expect(all.body.total).toBe(36)
  })

  it("finds events within an exact great-circle radius", async () => {
    const r = await pro()(`/events?lat=${center.lat}&lng=${center.lng}&radius_km=10`)
    expect(ids(r.body)).toEqual(["near"])
    const wider = await pro()(`/events?lat=${center.lat}&lng=${center.lng}&radius_km=10.2`)
    expect(ids(wider.body)).toEqual(["far", "near"])
    const defaultRadius = await pro()(`/events?lat=${center.lat}&lng=${center.lng}`)
    expect(ids(defaultRadius.body)).toEqual(["city", "far", "near"])
  })

  it("filters by bounding box", async () => {
    expect(ids((await pro()("/events?bbox=-76.5,42,-76,42.2")).body)).toEqual(["wz"])
  })

  it("returns events by ids regardless of status and without paging", async () => {
    const all = (await pro()("/events?status=active,archived&limit=1000")).body.data as Array<{
      id: string
      source_id: string
    }>
    const wanted = all.filter((e) => ["gone", "near"].includes(e.source_id)).map((e) => e.id)
    const r = await pro()(`/events?ids=${wanted.join(",")}&type=weather`)
    expect(ids(r.body)).toEqual(["gone", "near"])
    expect(r.body).toMatchObject({ total: 2, has_more: false, offset: 0 })
  })
})

describe("GET /events links", () => {
  // the links come in the rows' own statement (one JSON column): strongest first, two places, on
  // lists, ids and the detail; distinct query strings, so no answer shared before the links is met
  it("shows each event's related reports, strongest first, wherever an event is shown", async () => {
    const sql = (f: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
      rt.runPromise(Effect.flatMap(SqlClient.SqlClient, f) as Effect.Effect<unknown>)
    const idOf = async (sourceId: string) =>
      ((await sql((q) => q`SELECT id FROM events WHERE source_id = ${sourceId}`)) as Array<{ id: string }>)[0].id
    const [near, far, wz] = [await idOf("near"), await idOf("far"), await idOf("wz")]
    await sql(
      (q) => q`INSERT INTO event_links (event_id, related_id, reason, confidence, linked_at) VALUES
      (${near}, ${wz}, 'same road', 0.5, now()), (${near}, ${far}, 'nearby', 0.876, now())`
    )
    try {
      const expected = [
        { id: far, source: "api-src", reason: "nearby", confidence: 0.88 },
        { id: wz, source: "api-src", reason: "same road", confidence: 0.5 }
      ]
      const list = (await pro()("/events?type=construction,closure&limit=11")).body
      expect(list.data.find((e: { id: string }) => e.id === near).related).toEqual(expected)
      expect(list.data.find((e: { id: string }) => e.id === wz).related).toEqual([])
      expect(
        (await pro()(`/events?ids=${near},${far}`)).body.data.find((e: { id: string }) => e.id === near).related
      ).toEqual(expected)
      const detail = (await pro()(`/events/${near}`)).body
      expect(detail.related).toEqual(expected)
      for (const e of [...list.data, detail]) {
        expect(e).not.toHaveProperty("represented_by")
        expect(Object.keys(e).at(-1)).toBe("related")
      }
    } finally {
      await sql((q) => q`DELETE FROM event_links WHERE event_id = ${near}`)
    }
  })
})

describe("GET /events paging", () => {
  it("pages by offset with an exact has_more and total", async () => {
    const a = await pro()("/events?jurisdiction=NY&limit=20")
    expect(a.body).toMatchObject({ total: 34, limit: 20, offset: 0, has_more: true })
    const b = await pro()("/events?jurisdiction=NY&limit=20&offset=20")
    expect(b.body).toMatchObject({ total: 34, has_more: false })
    expect(b.body.data).toHaveLength(14)
    const exact = await pro()("/events?jurisdiction=NY&limit=14&offset=20")
    expect(exact.body.has_more).toBe(false)
    // the rows and the count are one statement: its bookkeeping columns never reach a row
    for (const e of [...a.body.data, ...b.body.data])
      expect(Object.keys(e)).not.toEqual(expect.arrayContaining(["_total"]))
    for (const e of [...a.body.data, ...b.body.data]) expect(e).not.toHaveProperty("seq")
  })

  it("answers a page past the end with no rows and the exact total", async () => {
    const past = await pro()("/events?jurisdiction=NY&limit=20&offset=40")
    expect(past.status).toBe(200)
    expect(past.body).toMatchObject({ data: [], total: 34, offset: 40, has_more: false })
    const none = await pro()("/events?jurisdiction=NY&severity=minor&road=no-such-road&limit=5")
    expect(none.body).toMatchObject({ data: [], total: 0, has_more: false })
  })

  it("pages by cursor through the same rows in the same order as offset paging", async () => {
    const byOffset = (await pro()("/events?jurisdiction=NY&limit=1000")).body.data.map((e: { id: string }) => e.id)
    const seen: Array<string> = []
    let cursor: string | undefined
    for (;;) {
      const r = await pro()(`/events?jurisdiction=NY&limit=7${cursor ? `&cursor=${cursor}` : ""}`)
      seen.push(...r.body.data.map((e: { id: string }) => e.id))
      if (!r.body.has_more) {
        expect(r.body.next_cursor).toBeUndefined()
        break
      }
      cursor = r.body.next_cursor
    }
    expect(seen).toEqual(byOffset)
  })

  it("refuses bad paging input with 400 and a clear error", async () => {
    const first = await pro()("/events?limit=2")
    const cursor = first.body.next_cursor as string
    const cases: Array<[string, RegExp]> = [
      [`/events?cursor=${cursor}&offset=0`, /mutually exclusive/],
      ["/events?offset=10001", /^offset must be a whole number from 0 to 10,000; page deeper with cursor$/],
      ["/events?offset=99999999999999999999", /^offset must be a whole number from 0 to 10,000/],
      // the plan's real cap (Pro: 1,000), never a validator's internal bound
      [
        "/events?limit=0",
        /^limit must be a whole number from 1 to 1,000 \(your plan's cap; a larger value is clamped to it\)$/
      ],
      ["/events?limit=-1", /^limit must be a whole number from 1 to 1,000/],
      ["/events?limit=abc", /^limit must be a whole number/],
      [`/events?cursor=${cursor.slice(0, -2)}xx`, /cursor is not valid/],
      [`/events?cursor=${cursor}&type=closure`, /different query/],
      ["/events?lat=abc&lng=1", /^lat must be a number from -90 to 90$/],
      ["/events?lat=1", /lat and lng go together/],
      ["/events?lat=1&lng=1&radius_km=-5", /^radius_km must be a number above 0 and at most 20,000$/],
      ["/events?lat=1&lng=1&radius_km=20001", /^radius_km must be a number above 0 and at most 20,000$/],
      ["/events?bbox=1,2,3", /^bbox must be minLng,minLat,maxLng,maxLat$/],
      ["/events?bbox=10,10,0,0", /minimums/],
      ["/events?lat=NaN&lng=1", /^lat must be a number from -90 to 90$/],
      ["/events?updated_after=yesterday", /^updated_after must be an RFC 3339 date-time or YYYY-MM-DD$/],
      ["/events?lat=95&lng=200", /^lat must be a number from -90 to 90; lng must be a number from -180 to 180$/]
    ]
    for (const [path, error] of cases) {
      const r = await pro()(path)
      expect(r.status, path).toBe(400)
      expect(r.body.error, path).toMatch(error)
      expect(r.body.docs_url, path).toBe("/docs/errors#400")
      expect(r.body.error, path).not.toMatch(/Expected|actual|1000000|9007199254740991|Schema|Transformation/)
    }
    expect((await pro()("/events?offset=10000")).status).toBe(200)
  })

  it("caps limit at the plan's maximum", async () => {
    const r = await api(base, keys.starter)("/events?limit=100000")
    expect(r.body.limit).toBe(500)
  })
})

describe("GET /events warnings and plan gates", () => {
  it("answers 200 with warnings and suggestions for unknown values", async () => {
    const r = await pro()("/events?type=incidnet&jurisdiction=CAA&severity=%20huge%20")
    expect(r.status).toBe(200)
    expect(r.body.total).toBe(0)
    const w = Object.fromEntries(r.body.warnings.map((x: { code: string }) => [x.code, x]))
    expect(w.unknown_type).toMatchObject({ value: "INCIDNET", did_you_mean: ["incident"] })
    expect(w.unknown_jurisdiction.value).toBe("CAA")
    expect(w.unknown_jurisdiction.did_you_mean[0]).toBe("CA")
    expect(w.unknown_severity.value).toBe("HUGE")
    expect(w.unknown_severity.did_you_mean).toBeUndefined()
    expect((await pro()("/events")).body.warnings).toBeUndefined()
  })

  it("requires a jurisdiction on Free, with the full plan-gate body", async () => {
    const r = await api(base, keys.free)("/events")
    expect(r.status).toBe(403)
    expect(r.body).toEqual({
      error: "the jurisdiction filter is required on your plan",
      code: "plan_jurisdiction",
      docs_url: "/docs/plans#plan_jurisdiction",
      plan: "free",
      plan_name: "Free",
      // with no PORTAL_URL the portal is this server itself
      upgrade_url: expect.stringMatching(/^http:\/\/localhost:\d+\/billing\/upgrade\?plan=free&gate=plan_jurisdiction$/)
    })
    expect((await api(base, keys.free)("/events?jurisdiction=NY,NJ")).body.code).toBe("plan_jurisdiction")
  })

  it("bounds ids by the plan's batch size", async () => {
    const many = Array.from({ length: 11 }, (_, i) => `ev_${i}`).join(",")
    const r = await api(base, keys.free)(`/events?jurisdiction=NY&ids=${many}`)
    expect(r.status).toBe(403)
    expect(r.body.code).toBe("plan_batch_size")
  })

  it("gates analytics to Pro and above", async () => {
    const r = await api(base, keys.starter)("/analytics/history/ev_x")
    expect(r.status).toBe(403)
    expect(r.body.code).toBe("plan_analytics")
  })
})

describe("GET /events/{id} and history", () => {
  it("returns every field of SPEC §2.1 on a single event", async () => {
    const list = await pro()("/events?sub_type=Paving")
    const one = await pro()(`/events/${list.body.data[0].id}`)
    expect(Object.keys(one.body).sort()).toEqual([
      "affected_roads",
      "archive_reason",
      "archived_at",
      "cause",
      "created_at",
      "description",
      "direction",
      "end_time",
      "estimated_end_time",
      "estimated_start_time",
      "id",
      "jurisdiction",
      "last_updated",
      "latitude",
      "location",
      "longitude",
      "metadata",
      "quality_flags",
      "related",
      "road_class",
      "severity",
      "source",
      "source_created_at",
      "source_id",
      "source_updated_at",
      "start_time",
      "status",
      "sub_type",
      "title",
      "type"
    ])
    expect(one.body.related).toEqual([]) // one source: nothing to link
    expect(one.body.location).toEqual({ type: "Point", coordinates: [one.body.longitude, one.body.latitude] })
    const history = await pro()(`/analytics/history/${one.body.id}`)
    expect(history.body).toHaveLength(1)
    expect(Object.keys(history.body[0]).sort()).toEqual([
      "change_type",
      "changed_at",
      "event_id",
      "id",
      "new_value",
      "old_value"
    ])
  })

  it("answers 404 for an unknown id", async () => {
    expect((await pro()("/events/ev_nope")).status).toBe(404)
    expect((await pro()("/analytics/history/ev_nope")).status).toBe(404)
  })

  it("answers 401 for a missing, malformed or unknown key", async () => {
    expect((await api(base)("/events")).status).toBe(401)
    expect((await api(base, "nope")("/events")).status).toBe(401)
    expect((await api(base, "rdk_" + "A".repeat(40))("/events")).status).toBe(401)
    expect((await api(base)(`/events?api_key=${keys.pro}`)).status).toBe(200)
  })
})

describe("GET /events/geojson", () => {
  it("answers an RFC 7946 FeatureCollection with the §4.1 properties, Starter and above", async () => {
    const r = await api(base, keys.starter)("/events/geojson?sub_type=Paving")
    expect(r.status).toBe(200)
    expect(r.headers.get("content-type")).toMatch(/^application\/geo\+json/)
    const [f] = r.body.features
    expect(f.geometry).toEqual({ type: "Point", coordinates: [-73.99, f.geometry.coordinates[1]] })
    expect(Object.keys(f.properties).sort()).toEqual([
      "affected_roads",
      "direction",
      "id",
      "jurisdiction",
      "quality_flags",
      "severity",
      "source",
      "start_time",
      "status",
      "title",
      "type"
    ])
    expect(r.body).toMatchObject({ type: "FeatureCollection", total: 1, has_more: false })
  })

  it("gates Free, and carries warnings only in the header", async () => {
    const gated = await api(base, keys.free)("/events/geojson?jurisdiction=NY")
    expect(gated.status).toBe(403)
    expect(gated.body.code).toBe("plan_geojson")
    const warned = await pro()("/events/geojson?type=incidnet")
    expect(warned.headers.get("x-jurisdiction-warning")).toMatch(/INCIDNET/)
    expect(warned.body.warnings).toBeUndefined()
  })
})
