import { Either, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { recordPoll, registerSources } from "../../../pipeline/poll/PollRecorder.js"
import type { SourceConfig } from "../../../pipeline/poll/SourceCatalogue.js"
import { ibi511 } from "../../../pipeline/sources/ibi511.js"
import { adapters } from "../../../pipeline/sources/registry.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import type { EventObservation } from "../../../shared/domain/Event.js"
import { webhookItems } from "../../../shared/webhooks/payloads.js"
import { changeScript } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * Quality flags from an agency's record to every place an event is shown: an ibi511 payload goes
 * through the adapter and its editor, the differ and the materializer into Postgres, and the API
 * on loopback publishes the flags in lists, the detail and GeoJSON, and leaves flagged rows out
 * on request. Times are relative to the run, so the suite passes on any day.
 */
const env = makeTestEnv()
const build = (onListen: (port: number) => void) =>
  ManagedRuntime.make(ApiServerLive({ port: 0, onListen }).pipe(Layer.provideMerge(env.layer)))
let rt: ReturnType<typeof build>
let base = ""
let key = ""

const now = Date.now()
const s = (ms: number) => Math.floor(ms / 1000)
const H = 3_600_000
const record = (id: string, over: Record<string, unknown>) => ({
  ID: id,
  RoadwayName: "I-90",
  DirectionOfTravel: "Eastbound",
  Description: `Record ${id}`,
  Reported: s(now - 5 * H),
  StartDate: s(now - 5 * H),
  Latitude: 42.65,
  Longitude: -73.75,
  EventType: "roadwork",
  EventSubType: "Paving",
  Severity: "Minor",
  ...over
})
const payload = [
  record("ok", { PlannedEndDate: s(now + 5 * H) }),
  // the agency's estimated end was two days ago, and its feed still lists it
  record("ended", { StartDate: s(now - 72 * H), PlannedEndDate: s(now - 48 * H) }),
  record("backwards", { StartDate: s(now + 48 * H), PlannedEndDate: s(now + 24 * H) }),
  record("idle", { Description: "Lane closures. Not currently scheduled.", PlannedEndDate: s(now + 5 * H) }),
  record("marked", {
    Description: "Right lane closed.<br/>Use caution&nbsp;near the bridge.",
    PlannedEndDate: s(now + 5 * H)
  }),
  record("closed", {
    IsFullClosure: true,
    Severity: "Unknown",
    LanesAffected: "All lanes closed",
    PlannedEndDate: s(now + 5 * H)
  })
]

let decoded: ReadonlyArray<EventObservation> = []

beforeAll(async () => {
  let port = 0
  rt = build((p) => (port = p))
  await rt.runtime()
  const d = ibi511.decode(payload, { source: "qf-src", jurisdiction: "NY", polledAt: new Date(now) })
  if (Either.isLeft(d)) throw new Error(d.left)
  decoded = d.right.records
  await rt.runPromise(applyChanges(changeScript("qf-src", [decoded], now - 60_000)))
  const source = {
    id: "qf-src",
    adapter: "ibi511",
    jurisdiction: "NY",
    url: "http://127.0.0.1:9/none",
    poll_interval_s: 60
  } as SourceConfig
  await rt.runPromise(registerSources([source], (a) => adapters.get(a)))
  await rt.runPromise(
    recordPoll({
      source: "qf-src",
      startedAt: new Date(now - 30_000),
      outcome: "ok",
      latencyMs: 10,
      httpStatus: 200,
      recordCount: decoded.length,
      rejected: [],
      changeCount: decoded.length,
      error: null
    })
  )
  key = (await rt.runPromise(createKey({ plan: "pro", email: "qf@example.com" }))).key
  base = `http://127.0.0.1:${port}/api/v1`
})
afterAll(async () => {
  await rt?.dispose()
  await env.cleanup()
})

const get = (path: string) => api(base, key)(path)
const flagsById = (rows: ReadonlyArray<{ source_id: string; quality_flags: ReadonlyArray<string> }>) =>
  Object.fromEntries(rows.map((r) => [r.source_id, r.quality_flags]))

describe("quality flags", () => {
  it("are published in list rows, worked out at the time of the question", async () => {
    const r = await get("/events?jurisdiction=NY&limit=100")
    expect(r.status).toBe(200)
    expect(flagsById(r.body.data)).toEqual({
      ok: [],
      marked: [],
      ended: ["end_time_passed"],
      backwards: ["end_before_start"],
      idle: ["not_scheduled"],
      closed: ["severity_inferred"]
    })
    // the SPEC statuses stay as they are: a flag qualifies an active event
    expect(r.body.data.every((e: { status: string }) => e.status === "active")).toBe(true)
    expect(r.body.data.find((e: { source_id: string }) => e.source_id === "closed").severity).toBe("major")
  })

  it("are on the detail and in GeoJSON properties", async () => {
    const list = await get("/events?jurisdiction=NY&limit=100")
    const ended = list.body.data.find((e: { source_id: string }) => e.source_id === "ended")
    expect((await get(`/events/${ended.id}`)).body.quality_flags).toEqual(["end_time_passed"])
    const geo = await get("/events/geojson?jurisdiction=NY&limit=100")
    const props = geo.body.features.map(
      (f: { properties: { id: string; quality_flags: Array<string> } }) => f.properties
    )
    expect(props.find((p: { id: string }) => p.id === ended.id).quality_flags).toEqual(["end_time_passed"])
  })

  it("leave rows out with exclude_flags, and an unknown flag is a warning, not an error", async () => {
    const current = await get("/events?jurisdiction=NY&exclude_flags=end_time_passed,end_before_start,not_scheduled")
    expect(current.body.data.map((e: { source_id: string }) => e.source_id).sort()).toEqual(["closed", "marked", "ok"])
    expect(current.body.total).toBe(3)
    const typo = await get("/events?jurisdiction=NY&exclude_flags=end_time_pased")
    expect(typo.status).toBe(200)
    expect(typo.body.total).toBe(6)
    expect(typo.body.warnings[0]).toMatchObject({
      code: "unknown_quality_flag",
      value: "END_TIME_PASED",
      did_you_mean: ["end_time_passed"]
    })
  })

  it("ride in webhook payloads, judged at the change's time", () => {
    const changes = changeScript("qf-hook", [decoded], now)
    const byId = new Map(decoded.map((o) => [o.source_id, o]))
    const items = changes.flatMap((c) =>
      webhookItems(c).map((i) => [c.event?.source_id, i.data.quality_flags] as const)
    )
    expect(Object.fromEntries(items)).toMatchObject({
      ended: ["end_time_passed"],
      closed: ["severity_inferred"],
      ok: []
    })
    expect(byId.size).toBe(6)
  })

  it("are counted per source, with the editor's repairs, in /data-sources and on the status report", async () => {
    const ds = (await get("/data-sources")).body.data.find((d: { id: string }) => d.id === "qf-src")
    expect(ds.last_read.quality.repaired).toEqual({ markup: 1 })
    expect(ds.last_read.quality.flagged).toEqual({
      end_before_start: 1,
      end_time_passed: 1,
      not_scheduled: 1,
      severity_inferred: 1
    })
    const status = await api(base)("/status/sources")
    expect(status.body.sources.find((x: { id: string }) => x.id === "qf-src").quality).toEqual(ds.last_read.quality)
  })
})
