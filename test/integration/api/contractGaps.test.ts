import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * The contract gaps a new consumer hit: warnings instead of silent empty answers,
 * suggestions from prefixes and names, archives visible to updated_after syncs, radius searches
 * near the documented maximum, the Free plan's data delay said out loud, lanes_affected never null.
 */
const env = makeTestEnv()
let base = ""
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (base = `http://127.0.0.1:${p}/api/v1`) }).pipe(
    Layer.provideMerge(env.layer)
  )
)
const keys: Record<string, string> = {}
/** The second poll of the script: b is gone from the feed, so it is archived then. */
let archivedAt = 0

beforeAll(async () => {
  await rt.runtime()
  const start = Date.now() - 2 * 86_400_000
  archivedAt = start + 60_000
  await rt.runPromise(
    applyChanges(
      changeScript(
        "gap",
        [
          [
            observation("a", { lanes_affected: "2 right lanes" }),
            observation("b", { sub_type: "Paving", cause: "roadwork", type: "construction" })
          ],
          [observation("a", { lanes_affected: "2 right lanes" })]
        ],
        start
      )
    )
  )
  const at = new Date()
  await rt.runPromise(
    applyChanges(
      diffFeaturePoll({
        source: "gapf",
        polledAt: at,
        now: at,
        presentIds: [],
        prev: new Map(),
        records: [feature("c")]
      }).changes
    )
  )
  for (const plan of ["free", "pro"])
    keys[plan] = (await rt.runPromise(createKey({ plan, email: `${plan}@gaps.example.com` }))).key
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const pro = (path: string) => api(base, keys.pro)(path)
const codes = (body: { warnings?: Array<{ code: string }> }) => (body.warnings ?? []).map((w) => w.code)

describe("warnings instead of silent empty answers", () => {
  it("an unknown cause or sub_type is a warning with a suggestion", async () => {
    const cause = await pro("/events?cause=acident")
    expect(cause.status).toBe(200)
    expect(cause.body.warnings).toEqual([
      expect.objectContaining({ code: "unknown_cause", value: "ACIDENT", did_you_mean: ["accident"] })
    ])
    const sub = await pro("/events?sub_type=Pavng&status=active,archived")
    expect(sub.status).toBe(200)
    expect(sub.body.warnings).toEqual([
      expect.objectContaining({ code: "unknown_sub_type", value: "PAVNG", did_you_mean: ["paving"] })
    ])
    // a known one is no warning
    expect((await pro("/events?sub_type=crash&cause=accident")).body.warnings).toBeUndefined()
  })

  it("a type outside the requested group is a warning naming the group's types", async () => {
    const r = await pro("/features?group=trucking&type=cameras")
    expect(r.status).toBe(200)
    expect(r.body.total).toBe(0)
    expect(r.body.warnings[0]).toMatchObject({ code: "type_not_in_group", value: "CAMERAS" })
    expect(r.body.warnings[0].message).toMatch(/not in group "trucking"/)
  })

  it("did_you_mean also comes from prefixes and names", async () => {
    const maj = await pro("/events?severity=maj")
    expect(maj.body.warnings).toEqual([expect.objectContaining({ code: "unknown_severity", did_you_mean: ["major"] })])
    const ontario = await pro("/events?jurisdiction=Ontario")
    expect(ontario.body.warnings[0]).toMatchObject({ code: "unknown_jurisdiction", value: "ONTARIO" })
    expect(ontario.body.warnings[0].did_you_mean[0]).toBe("ON")
    const ny = await pro("/events?jurisdiction=New%20York")
    expect(ny.body.warnings[0].did_you_mean[0]).toBe("NY")
    const prefix = await pro("/features?type=camer")
    expect(prefix.body.warnings[0].did_you_mean[0]).toBe("cameras")
  })
})

describe("archives and sync", () => {
  it("archiving moves last_updated, so an updated_after sync sees the archive", async () => {
    const since = new Date(archivedAt - 1000).toISOString()
    const r = await pro(`/events?status=active,archived&updated_after=${since}`)
    const b = r.body.data.find((e: { source_id: string }) => e.source_id === "b")
    expect(b).toMatchObject({ status: "archived" })
    expect(Date.parse(b.last_updated)).toBe(archivedAt)
    const detail = await pro(`/events/${b.id}`)
    expect(detail.body.archived_at).toBe(b.last_updated)
  })
})

describe("radius near the documented maximum", () => {
  it("18,500–20,000 km finds what the circle covers, events and features", async () => {
    // the event is in New York (40.75, -73.99); its antipode is near (-40.75, 106.01)
    for (const [lat, lng, radius] of [
      [0, 0, 18_500],
      [-39.75, 106, 20_000],
      [40, -74, 19_999]
    ]) {
      const r = await pro(`/events?lat=${lat}&lng=${lng}&radius_km=${radius}`)
      expect(r.status, `${lat},${lng} r=${radius}`).toBe(200)
      expect(r.body.total, `${lat},${lng} r=${radius}`).toBe(1)
    }
    // just short of the antipode's reach: nothing, not everything
    expect((await pro("/events?lat=-40.75&lng=106.01&radius_km=19000")).body.total).toBe(0)
    expect((await pro("/features?type=cameras&lat=0&lng=0&radius_km=18500")).body.total).toBe(1)
    expect((await pro("/features?type=cameras&lat=-48&lng=57&radius_km=20000")).body.total).toBe(1)
  })
})

describe("the Free plan's data delay", () => {
  it("is a data_delayed warning saying by how much; a real-time plan gets none", async () => {
    const free = await api(base, keys.free)("/events?jurisdiction=NY")
    expect(free.status).toBe(200)
    expect(free.body.warnings).toEqual([expect.objectContaining({ code: "data_delayed", value: "300s" })])
    expect(free.body.warnings[0].message).toMatch(/delayed by 5 minutes/)
    const features = await api(base, keys.free)("/features?type=cameras&jurisdiction=BC")
    expect(codes(features.body)).toContain("data_delayed")
    expect(codes((await pro("/events")).body)).not.toContain("data_delayed")
  })
})

describe("lanes_affected", () => {
  it("is a string when the source says, and omitted (never null) when it does not", async () => {
    const r = await pro("/events?status=active,archived")
    const a = r.body.data.find((e: { source_id: string }) => e.source_id === "a")
    const b = r.body.data.find((e: { source_id: string }) => e.source_id === "b")
    expect(a.lanes_affected).toBe("2 right lanes")
    expect(b).not.toHaveProperty("lanes_affected")
    expect((await pro(`/events/${b.id}`)).body).not.toHaveProperty("lanes_affected")
    expect((await pro(`/events?ids=${b.id}`)).body.data[0]).not.toHaveProperty("lanes_affected")
  })
})
