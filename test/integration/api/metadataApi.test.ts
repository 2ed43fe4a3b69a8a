import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { recordPoll, registerSources } from "../../../pipeline/poll/PollRecorder.js"
import type { SourceConfig } from "../../../pipeline/poll/SourceCatalogue.js"
import { adapters } from "../../../pipeline/sources/registry.js"
import { rebuildCoverage } from "../../../pipeline/stages/coverage/rebuildCoverage.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { Redis } from "../../../shared/db/Redis.js"
import { CIRCUIT_SKIP } from "../../../shared/sources/pollState.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

const env = makeTestEnv()
const build = (onListen: (port: number) => void) =>
  ManagedRuntime.make(ApiServerLive({ port: 0, onListen }).pipe(Layer.provideMerge(env.layer)))
let rt: ReturnType<typeof build>
let call: ReturnType<typeof api>
let anon: ReturnType<typeof api>

const src = (id: string, adapter: string, jurisdiction: string): SourceConfig => ({
  id,
  adapter,
  url: `http://127.0.0.1:9/${id}`,
  jurisdiction,
  poll_interval_s: 60,
  timeout_ms: 1000,
  headers: {}
})

const featureChanges = (
  source: string,
  records: Parameters<typeof diffFeaturePoll>[0]["records"],
  prev = new Map()
) => {
  const at = new Date()
  return diffFeaturePoll({ source, polledAt: at, now: at, records, presentIds: [], prev })
}

beforeAll(async () => {
  let port = 0
  rt = build((p) => (port = p))
  await rt.runtime()
  await rt.runPromise(
    Effect.gen(function* () {
      const sources = [
        src("cams", "drivebc_webcams", "BC"),
        src("ev", "ocpi", "BC"),
        src("ny", "ibi511", "NY"),
        src("signs", "drivebc_dms", "BC"),
        src("wa", "ibi511", "WA")
      ]
      yield* registerSources(sources, (a) => adapters.get(a))
      const cams = featureChanges("cams", [feature("c1"), feature("c2")])
      const signs = featureChanges("signs", [feature("s1", { feature_type: "signs" })])
      yield* applyChanges([
        ...cams.changes,
        ...featureChanges("ev", [feature("e1", { feature_type: "ev_charging" })]).changes,
        ...signs.changes
      ])
      yield* applyChanges(changeScript("ny", [[observation("n1"), observation("n2", { type: "closure" })]]))
      yield* rebuildCoverage
      // the sign goes dark: its pair stays covered, now empty
      yield* applyChanges(
        featureChanges("signs", [feature("s1", { feature_type: "signs", is_active: false })], new Map(signs.upserts))
          .changes
      )
      yield* rebuildCoverage
      // polls for status: ny fine, ev erroring with an open circuit
      const now = Date.now() - 10_000
      const refused = [
        { reason: 'Latitude: Expected number, actual "x"' },
        { reason: 'Latitude: Expected number, actual "north"' },
        { reason: "invalid coordinates 91,-200" }
      ]
      for (const [i, outcome] of (["ok", "ok", "ok", "error"] as const).entries()) {
        const read = outcome === "ok"
        yield* recordPoll({
          source: "ny",
          startedAt: new Date(now + i * 1000),
          outcome,
          latencyMs: 5,
          httpStatus: 200,
          recordCount: read ? 2 : 0,
          rejected: read ? refused.slice(0, i + 1).map((r) => ({ ...r, sample: null })) : [],
          changeCount: 0,
          error: read ? null : "HTTP 503"
        })
      }
      yield* recordPoll({
        source: "ev",
        startedAt: new Date(now),
        outcome: "error",
        latencyMs: 5,
        httpStatus: 503,
        recordCount: 0,
        rejected: [],
        changeCount: 0,
        error: "HTTP 503"
      })
      // wa: a circuit that opened and closed again, then failures and an opening still under way
      const waPolls = [
        ["ok", null],
        ["error", "HTTP 500"],
        ["error", CIRCUIT_SKIP],
        ["error", CIRCUIT_SKIP],
        ["ok", null],
        ["error", "HTTP 500"],
        ["error", CIRCUIT_SKIP]
      ] as const
      for (const [i, [outcome, error]] of waPolls.entries()) {
        yield* recordPoll({
          source: "wa",
          startedAt: new Date(now - 100_000 + i * 10_000),
          outcome,
          latencyMs: 5,
          httpStatus: outcome === "ok" ? 200 : null,
          recordCount: outcome === "ok" ? 7 : 0,
          rejected: [],
          changeCount: 0,
          error
        })
      }
      const redis = yield* Redis
      yield* redis.use("circuit", (c) =>
        c.set(
          redis.key("circuit", "ev"),
          JSON.stringify({ failures: 5, openUntil: Date.now() + 600_000, cooldownMs: 600_000 })
        )
      )
      // a consumer group three changes behind
      yield* redis.use("group", async (c) => {
        await c.xGroupCreate(redis.key("changes"), "status-test", "$", { MKSTREAM: true })
        for (let i = 0; i < 3; i++) await c.xAdd(redis.key("changes"), "*", { body: "{}" })
      })
    })
  )
  const { key } = await rt.runPromise(createKey({ plan: "pro", email: "meta@example.com" }))
  call = api(`http://127.0.0.1:${port}/api/v1`, key)
  anon = api(`http://127.0.0.1:${port}/api/v1`)
})
afterAll(async () => {
  await rt?.dispose()
  await env.cleanup()
})

describe("jurisdictions", () => {
  it("lists by scope, states by default", async () => {
    const counts = await Promise.all(
      ["", "?scope=federal", "?scope=regional", "?scope=all"].map(
        async (q) => (await call(`/jurisdictions${q}`)).body.length
      )
    )
    expect(counts).toEqual([116, 5, 3, 124])
    const [ny] = (await call("/jurisdictions")).body.filter((j: { code: string }) => j.code === "NY")
    expect(Object.keys(ny).sort()).toEqual([
      "code",
      "country",
      "group_id",
      "is_active",
      "last_sync_at",
      "name",
      "official_name",
      "scope"
    ])
    expect((await call("/jurisdictions?scope=galactic")).status).toBe(400)
  })
  it("lists groups with the primary code first", async () => {
    const groups = (await call("/jurisdictions/groups")).body
    expect(groups).toHaveLength(64)
    expect(groups.find((g: { id: string }) => g.id === "us-ny")).toMatchObject({
      primary_jurisdiction_code: "NY",
      members: ["NY", "WZDX_NY", "NYC"]
    })
  })
})

describe("coverage (SPEC §2.5)", () => {
  it("tells never held, held, and covered but empty apart", async () => {
    const data = (await call("/coverage?jurisdiction=BC")).body.data as Array<{
      kind: string
      type: string
      row_count: number
      last_nonzero_at: string | null
      latest_data_at: string | null
    }>
    const byType = Object.fromEntries(data.filter((d) => d.kind === "feature").map((d) => [d.type, d]))
    expect(byType.cameras).toMatchObject({ row_count: 2 })
    expect(byType.cameras.latest_data_at).not.toBeNull()
    expect(byType.signs.row_count).toBe(0)
    expect(byType.signs.last_nonzero_at).not.toBeNull()
    expect(byType.weather_stations).toBeUndefined()
    expect((await call("/coverage/NY")).body.data.map((d: { type: string }) => d.type).sort()).toEqual([
      "closure",
      "incident"
    ])
  })

  it("warns not_covered and covered_but_empty on empty single-jurisdiction results, in body and header", async () => {
    const never = await call("/features?type=weather_stations&jurisdiction=BC")
    expect(never.body.warnings).toEqual([
      { code: "not_covered", value: "BC", message: "no weather_stations data has ever been held for BC" }
    ])
    expect(never.headers.get("x-jurisdiction-warning")).toBe(never.body.warnings[0].message)
    const quiet = await call("/features?type=signs&jurisdiction=bc&active=true")
    expect(quiet.body.warnings[0]).toMatchObject({ code: "covered_but_empty", value: "BC" })
    const events = await call("/events?type=weather&jurisdiction=NY")
    expect(events.body.warnings[0].code).toBe("not_covered")
    // not on a non-empty result, and not for several jurisdictions
    expect((await call("/features?type=cameras&jurisdiction=BC")).body.warnings).toBeUndefined()
    expect((await call("/features?type=weather_stations&jurisdiction=BC,AB")).body.warnings).toBeUndefined()
  })
})

describe("sources and credits", () => {
  it("puts attribution on an envelope only when a source in data requires it", async () => {
    const cams = await call("/features?type=cameras")
    expect(cams.body.attribution).toEqual([
      {
        name: "DriveBC",
        text: "Contains information licensed under the Open Government Licence – British Columbia",
        url: "https://www.drivebc.ca",
        license: "OGL-BC"
      }
    ])
    expect((await call("/features?type=ev_charging")).body.attribution).toBeUndefined()
  })
  it("lists data sources with their credits and last poll", async () => {
    const data = (await call("/data-sources")).body.data
    expect(data.map((d: { id: string }) => d.id)).toEqual(["cams", "ev", "ny", "signs", "wa"])
    expect(data[0]).toMatchObject({ kind: "features", yields: ["cameras"], requires_attribution: true })
    expect(data[2]).toMatchObject({
      kind: "events",
      requires_attribution: false,
      attribution: null,
      last_outcome: "error"
    })
  })
  it("shows what the last poll that read a payload refused, with its commonest reasons; a failed poll does not hide it", async () => {
    const data = (await call("/data-sources")).body.data
    const ny = data.find((d: { id: string }) => d.id === "ny")
    expect(ny.last_outcome).toBe("error")
    expect(ny.last_read).toMatchObject({ records: 2, rejected: 3 })
    expect(ny.last_read.top_reasons).toEqual([
      { reason: "Latitude: Expected number, actual …", count: 2, example: 'Latitude: Expected number, actual "x"' },
      { reason: "invalid coordinates #,#", count: 1, example: "invalid coordinates 91,-200" }
    ])
    expect(data.find((d: { id: string }) => d.id === "ev").last_read).toBeNull() // it never read a payload
  })
})

describe("stats and status", () => {
  it("summarizes jurisdictions, events and features", async () => {
    const s = (await call("/stats/summary")).body
    expect(s.jurisdictions).toMatchObject({ total: 124, by_country: { US: 108, CA: 16 } })
    expect(s.events).toEqual({ active: 2, by_type: { incident: 1, closure: 1 }, by_severity: { minor: 2 } })
    expect(s.features).toMatchObject({ total: 4, by_type: { cameras: 2, ev_charging: 1, signs: 1 } })
    expect(typeof s.uptime).toBe("number")
  })
  it("answers /status without a key, with circuits, uptime and worker staleness", async () => {
    const r = await anon("/status")
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ overall: "degraded", total_resources: 5, critical: 3, warning: 2 })
    expect(r.body.worker.healthy).toBe(true)
    const byCode = Object.fromEntries(r.body.jurisdictions.map((j: { code: string }) => [j.code, j]))
    expect(byCode.NY).toMatchObject({
      name: "New York",
      country: "US",
      status: "warning",
      total_resources: 1,
      open_circuits: 0,
      uptime_7day_percent: 75
    })
    expect(byCode.BC).toMatchObject({
      status: "critical",
      total_resources: 3,
      open_circuits: 1,
      uptime_7day_percent: 0
    })
    expect(byCode.WA).toMatchObject({ status: "warning", total_resources: 1, uptime_7day_percent: 28.57 })
  })

  it("answers /status/sources without a key: per source, stage lag and the week's incidents", async () => {
    const r = await anon("/status/sources")
    expect(r.status).toBe(200)
    expect(r.headers.get("cache-control")).toBe("public, max-age=30")
    const byId = Object.fromEntries(r.body.sources.map((s: { id: string }) => [s.id, s]))
    expect(r.body.sources.map((s: { id: string }) => s.id)).toEqual(["cams", "ev", "signs", "ny", "wa"])
    expect(byId.ny).toMatchObject({
      jurisdiction: "NY",
      jurisdiction_name: "New York",
      kind: "events",
      last_outcome: "error",
      circuit: "closed",
      circuit_open_until: null,
      records: 2,
      rejected_7d: 6,
      uptime_7day_percent: 75,
      top_reasons: [
        { reason: 'Latitude: Expected number, actual "x"', count: 3 },
        { reason: 'Latitude: Expected number, actual "north"', count: 2 },
        { reason: "invalid coordinates 91,-200", count: 1 }
      ]
    })
    expect(byId.ev).toMatchObject({
      circuit: "open",
      last_outcome: "error",
      last_http_status: 503,
      records: null,
      uptime_7day_percent: 0
    })
    expect(Date.parse(byId.ev.circuit_open_until)).toBeGreaterThan(Date.now())
    expect(byId.signs).toMatchObject({
      last_poll_at: null,
      last_outcome: null,
      uptime_7day_percent: null,
      top_reasons: []
    })
    // seven UTC days, oldest first, today last; the polls land on the day they were made
    for (const s of r.body.sources) {
      expect(s.uptime_by_day).toHaveLength(7)
      expect(s.uptime_by_day.map((d: { day: string }) => d.day)).toEqual(
        [...s.uptime_by_day.map((d: { day: string }) => d.day)].sort()
      )
    }
    expect(byId.wa.uptime_by_day.reduce((n: number, d: { polls: number }) => n + d.polls, 0)).toBe(7)
    expect(byId.wa.uptime_by_day.at(-1).day).toBe(new Date(Date.parse(r.body.generated_at)).toISOString().slice(0, 10))
    expect(byId.wa.records).toBe(7)
    // incidents: runs of failed polls in which the circuit opened, newest first
    const base = Date.parse(byId.ny.last_poll_at) - 3000 - 100_000
    expect(
      r.body.incidents.map((i: { began_at: string; ended_at: string | null }) => [i.began_at, i.ended_at])
    ).toEqual([
      [new Date(base + 50_000).toISOString(), null],
      [new Date(base + 10_000).toISOString(), new Date(base + 40_000).toISOString()]
    ])
    expect(r.body.incidents[0]).toMatchObject({ source: "wa", jurisdiction: "WA", failed_polls: 2, skipped_polls: 1 })
    expect(r.body.incidents[1]).toMatchObject({ source: "wa", failed_polls: 3, skipped_polls: 2 })
    const group = r.body.stages.find((g: { group: string }) => g.group === "status-test")
    expect(group).toMatchObject({ lag_messages: 3, pending: 0 })
    expect(group.behind_seconds).toBeGreaterThanOrEqual(0)
  })
})
