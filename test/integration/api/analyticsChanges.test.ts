import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/** GET /analytics/changes (SPEC §4.5) and the analytics gate on every analytics path, known or not. */
const env = makeTestEnv()
let base = ""
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (base = `http://127.0.0.1:${p}/api/v1`) }).pipe(
    Layer.provideMerge(env.layer)
  )
)
const keys: Record<string, string> = {}
let start = 0

beforeAll(async () => {
  await rt.runtime()
  start = Date.now() - 3 * 86_400_000
  // poll 1: a (NY incident), b (NJ closure) created; poll 2: a goes major; poll 3: b is gone (archived)
  await rt.runPromise(
    applyChanges(
      changeScript(
        "ac",
        [
          [observation("a"), observation("b", { jurisdiction: "NJ", type: "closure" })],
          [observation("a", { severity: "major" }), observation("b", { jurisdiction: "NJ", type: "closure" })],
          [observation("a", { severity: "major" })]
        ],
        start
      )
    )
  )
  for (const plan of ["starter", "pro"])
    keys[plan] = (await rt.runPromise(createKey({ plan, email: `${plan}@changes.example.com` }))).key
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const pro = (path: string) => api(base, keys.pro)(path)
const summary = (body: { data: Array<{ event_title: string; change_type: string; jurisdiction: string }> }) =>
  body.data.map((c) => `${c.event_title}:${c.change_type}:${c.jurisdiction}`)

describe("GET /analytics/changes", () => {
  it("lists every change oldest first with the event's jurisdiction and title", async () => {
    const r = await pro("/analytics/changes")
    expect(r.status).toBe(200)
    expect(summary(r.body)).toEqual([
      "event a:created:NY",
      "event b:created:NJ",
      "event a:severity_change:NY",
      "event b:archived:NJ"
    ])
    expect(r.body).toMatchObject({ total: 4, limit: 100, offset: 0, has_more: false })
    expect(r.body.data[2]).toMatchObject({
      old_value: "minor",
      new_value: "major",
      changed_at: new Date(start + 60_000).toISOString()
    })
  })

  it("filters by jurisdiction (group expansion), event type, change_type and since/until", async () => {
    expect(summary((await pro("/analytics/changes?jurisdiction=NJ")).body)).toEqual([
      "event b:created:NJ",
      "event b:archived:NJ"
    ])
    expect(summary((await pro("/analytics/changes?type=incident")).body)).toEqual([
      "event a:created:NY",
      "event a:severity_change:NY"
    ])
    expect(summary((await pro("/analytics/changes?change_type=archived,severity_change")).body)).toEqual([
      "event a:severity_change:NY",
      "event b:archived:NJ"
    ])
    const mid = new Date(start + 30_000).toISOString()
    expect(summary((await pro(`/analytics/changes?since=${mid}`)).body)).toEqual([
      "event a:severity_change:NY",
      "event b:archived:NJ"
    ])
    expect(summary((await pro(`/analytics/changes?until=${mid}`)).body)).toEqual([
      "event a:created:NY",
      "event b:created:NJ"
    ])
  })

  it("pages with limit, offset and cursor, with an exact has_more", async () => {
    const first = await pro("/analytics/changes?limit=3")
    expect(first.body).toMatchObject({ total: 4, has_more: true })
    const next = await pro(`/analytics/changes?limit=3&cursor=${encodeURIComponent(first.body.next_cursor)}`)
    expect(summary(next.body)).toEqual(["event b:archived:NJ"])
    expect(next.body.has_more).toBe(false)
    expect((await pro("/analytics/changes?limit=2&offset=2")).body.data).toHaveLength(2)
    expect((await pro("/analytics/changes?offset=10001")).status).toBe(400)
  })

  it("answers unknown values with warnings, and a since beyond the plan's history with a plan gate", async () => {
    const r = await pro("/analytics/changes?change_type=severity&type=incidnet")
    expect(r.status).toBe(200)
    expect(r.body.data).toEqual([])
    expect(r.body.warnings.map((w: { code: string }) => w.code).sort()).toEqual(["unknown_change_type", "unknown_type"])
    expect(r.body.warnings.find((w: { code: string }) => w.code === "unknown_type").did_you_mean).toEqual(["incident"])
    const old = await pro(`/analytics/changes?since=${new Date(Date.now() - 400 * 86_400_000).toISOString()}`)
    expect(old.status).toBe(403)
    expect(old.body.code).toBe("plan_event_time_range")
  })
})

describe("the analytics gate", () => {
  it("is 403 plan_analytics below Pro on every analytics path, unknown ones included; 404 JSON for Pro on an unknown one", async () => {
    for (const path of [
      "/analytics/changes",
      "/analytics/history/ev_x",
      "/analytics/nope",
      "/analytics/trends/deeper"
    ]) {
      const r = await api(base, keys.starter)(path)
      expect(r.status, path).toBe(403)
      expect(r.body.code, path).toBe("plan_analytics")
    }
    const unknown = await pro("/analytics/nope")
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({
      error: expect.stringMatching(/no such analytics endpoint: \/analytics\/nope/),
      docs_url: "/docs/api#analytics"
    })
  })
})
