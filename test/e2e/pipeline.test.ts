import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../api/server.js"
import { createKey } from "../../infra/admin/keys.js"
import { simulatorCatalogue } from "../../infra/simulator/timeline.js"
import { type SimulatorHandle, startSimulator } from "../../infra/simulator/Simulator.js"
import { PipelineLive } from "../../pipeline/PipelineLive.js"
import { decodeCatalogue, SourceCatalogue } from "../../pipeline/poll/SourceCatalogue.js"
import { makeTestEnv } from "../support/harness.js"
import { api } from "../support/http.js"

/**
 * simulator → poller → differ → Redis Stream → materializer → Postgres → API, all real, on
 * loopback. Polls every 0.25 s with sweep factor 8, so the stale sweep fires 2 s after the
 * Open511 feed was last seen.
 */
const POLL_S = 0.25
const env = makeTestEnv({ sweepFactor: 8, metricsToken: Redacted.make("e2e-metrics") })
let sim: SimulatorHandle
const build = (sim: SimulatorHandle, onListen: (port: number) => void) => {
  const catalogue = Layer.effect(SourceCatalogue, decodeCatalogue(simulatorCatalogue(sim.url, POLL_S)))
  return ManagedRuntime.make(
    Layer.mergeAll(ApiServerLive({ port: 0, onListen }), PipelineLive("e2e")).pipe(
      Layer.provide(catalogue),
      Layer.provideMerge(env.layer)
    )
  )
}
let rt: ReturnType<typeof build>
let call: ReturnType<typeof api>
let base = ""

beforeAll(async () => {
  sim = await startSimulator(0)
  sim.setElapsed(0)
  let port = 0
  rt = build(sim, (p) => (port = p))
  await rt.runtime()
  const key = await rt.runPromise(createKey({ plan: "pro", email: "e2e@example.com" }))
  base = `http://127.0.0.1:${port}/api/v1`
  call = api(base, key.key)
})

afterAll(async () => {
  await rt?.dispose()
  await sim?.close()
  await env.cleanup()
})

const eventually = async <T>(f: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await f()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, 100))
  }
}

const bySource = async (status: string, sourceId: string) => {
  const r = await call(`/events?status=${status}&limit=100`)
  return (r.body.data as Array<{ id: string; source_id: string }>).find((e) => e.source_id === sourceId)
}

describe("end to end", () => {
  it("shows active events from all five formats, TMDD's XML and CARS among them", async () => {
    const r = await eventually(async () => {
      const res = await call("/events?limit=100")
      return new Set((res.body.data as Array<{ source: string }>).map((e) => e.source)).size >= 5 &&
        res.body.total >= 12
        ? res
        : undefined
    })
    const sources = new Set((r.body.data as Array<{ source: string }>).map((e) => e.source))
    expect([...sources].sort()).toEqual([
      "sim-cars-bc",
      "sim-ibi511-ny",
      "sim-open511-bc",
      "sim-tmdd-ia",
      "sim-wzdx-ia"
    ])
    const chains = (r.body.data as Array<{ source_id: string }>).find((e) => e.source_id === "SIM-CARS-2001")
    expect(chains).toMatchObject({
      type: "restriction",
      sub_type: "commercial_chain_up",
      affected_roads: ["Highway 5"]
    })
    const works = (r.body.data as Array<{ source_id: string }>).find((e) => e.source_id === "IA-TMC-4107")
    expect(works).toMatchObject({
      type: "construction",
      title: "Road construction on I-80 northbound from Exit 137 to Exit 138",
      jurisdiction: "IA"
    })
    // the malformed simulator record was quarantined, not stored
    expect((r.body.data as Array<{ source_id: string }>).some((e) => e.source_id === "NY-BAD-1")).toBe(false)
  })

  it("links each cross-source pair as one event: related[] on both, one under dedupe=true", async () => {
    type Listed = {
      id: string
      source: string
      source_id: string
      related: Array<{ id: string; source: string; confidence: number }>
    }
    const pairs = [
      ["IA-TMC-4107", "5a1f0c2e-0002-4c5e-9a10-000000000002"],
      ["SIM-CARS-2002", "BC-1001"]
    ] as const
    const listed = await eventually(async () => {
      const res = await call("/events?limit=100")
      const data = res.body.data as Array<Listed>
      const bySourceId = new Map(data.map((e) => [e.source_id, e]))
      return pairs.every(([a, b]) => bySourceId.get(a)?.related.some((x) => x.id === bySourceId.get(b)?.id))
        ? bySourceId
        : undefined
    })
    for (const [a, b] of pairs) {
      const [ea, eb] = [listed.get(a)!, listed.get(b)!]
      expect(ea.source).not.toBe(eb.source)
      expect(eb.related.map((x) => x.id)).toEqual([ea.id])
      expect(ea.related[0].confidence).toBeGreaterThan(0.9)
    }
    const deduped = (await call("/events?limit=100&dedupe=true")).body.data as Array<
      Listed & { also_reported_by: Array<{ id: string }> }
    >
    for (const [a, b] of pairs) {
      const shown = deduped.filter((e) => e.source_id === a || e.source_id === b)
      expect(shown).toHaveLength(1)
      expect(shown[0].also_reported_by.map((x) => x.id)).toEqual([listed.get(shown[0].source_id === a ? b : a)!.id])
    }
  })

  it("records a severity change in the event's history", async () => {
    sim.setElapsed(21)
    const ev = await eventually(async () => {
      const e = await bySource("active", "5a1f0c2e-0001-4c5e-9a10-000000000001")
      const full = e && (await call(`/events/${e.id}`)).body
      return full?.severity === "major" ? full : undefined
    })
    expect(ev).toMatchObject({ type: "closure", status: "active", archive_reason: null, archived_at: null })
    const history = (await call(`/analytics/history/${ev.id}`)).body as Array<{
      change_type: string
      old_value: string
      new_value: string
    }>
    expect(history.map((h) => h.change_type)).toEqual(["created", "severity_change", "lanes_change"])
    expect(history[1]).toMatchObject({ old_value: "moderate", new_value: "major" })
    expect(Date.parse(ev.last_updated)).toBeGreaterThan(Date.parse(ev.created_at))
  })

  it("archives an event that left a clean feed with reason observed", async () => {
    sim.setElapsed(26)
    const e = await eventually(() => bySource("archived", "NY-2003"))
    const full = (await call(`/events/${e.id}`)).body
    expect(full).toMatchObject({ status: "archived", archive_reason: "observed" })
    expect(full.archived_at).not.toBeNull()
    const history = (await call(`/analytics/history/${e.id}`)).body as Array<{ change_type: string }>
    expect(history.map((h) => h.change_type)).toEqual(["created", "archived"])
  })

  it("archives the events of a failing feed by stale sweep, not earlier", async () => {
    // the Open511 feed fails from 10 s of the timeline on; its events are archived by the sweep,
    // and no sooner than the sweep's delay after the feed's last good poll (judged on the
    // service's own clock, not on when this test happens to run)
    const e = await eventually(() => bySource("archived", "BC-1001"), 20_000)
    const full = (await call(`/events/${e.id}`)).body
    expect(full).toMatchObject({ status: "archived", archive_reason: "stale_sweep" })
    const [{ last_ok }] = await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ last_ok: string }>`
      SELECT max(started_at) AS last_ok FROM source_polls
      WHERE source = 'sim-open511-bc' AND outcome IN ('ok', 'not_modified') AND started_at < ${full.archived_at}`
      )
    )
    expect(Date.parse(full.archived_at) - Date.parse(last_ok)).toBeGreaterThanOrEqual(POLL_S * 8 * 1000 - 50)
  })

  it("shows cameras from the feature feed and records one going dark", async () => {
    const cams = await eventually(async () => {
      const r = await call("/features?type=cameras")
      return r.body.total === 3 ? r : undefined
    })
    expect(cams.body.data.every((c: { is_active: boolean }) => c.is_active)).toBe(true)
    sim.setElapsed(31)
    await eventually(async () => {
      const r = await call("/features?type=cameras&active=true")
      return r.body.total === 2 ? r : undefined
    })
  })

  it("exposes the pipeline's own figures at /metrics", async () => {
    const scrape = () =>
      fetch(base.replace("/api/v1", "/metrics"), { headers: { Authorization: "Bearer e2e-metrics" } }).then((r) =>
        r.text()
      )
    const text = await eventually(async () => {
      const t = await scrape()
      return /pipeline_source_polls_total\{source="sim-ibi511-ny",outcome="ok",worker="e2e"\} [1-9]/.test(t)
        ? t
        : undefined
    })
    expect(text).toMatch(/pipeline_changes_emitted_total\{source="sim-wzdx-ia",worker="e2e"\} [1-9]/)
    expect(text).toMatch(/pipeline_records_rejected_total\{source="sim-ibi511-ny",worker="e2e"\} [1-9]/)
    expect(text).toMatch(/stage_changes_applied_total\{group="materialize",worker="e2e"\} [1-9]/)
    expect(text).toMatch(/stage_lag_messages\{group="materialize"\} \d+/)
  })

  it("answers every analytics endpoint with data for a Pro key, and shows the analytics group's lag", async () => {
    sim.setElapsed(31)
    const rows = (path: string) => async () => {
      const r = await call(path)
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`)
      const list = Array.isArray(r.body) ? r.body : r.body.data
      return list.length > 0 ? list : undefined
    }
    for (const path of [
      "/analytics/changes",
      "/analytics/clearance",
      "/analytics/corridors",
      "/analytics/hotspots",
      "/analytics/weather",
      "/analytics/feature-history",
      "/analytics/weather-correlation"
    ]) {
      await eventually(rows(path), 20_000)
    }
    const trends = await eventually(rows("/analytics/trends"))
    expect(trends.some((p: { total: number }) => p.total > 0)).toBe(true)
    const bc = await eventually(() => bySource("active,archived", "BC-1003"))
    const snapshot = await eventually(async () => {
      const r = await call(`/analytics/event-weather/${bc.id}`)
      return r.status === 200 ? r.body : undefined
    })
    expect(snapshot).toMatchObject({ precipitation: "rain", road_surface: "wet" })
    const text = await fetch(base.replace("/api/v1", "/metrics"), {
      headers: { Authorization: "Bearer e2e-metrics" }
    }).then((r) => r.text())
    expect(text).toMatch(/stage_lag_messages\{group="analytics"\} \d+/)
  })

  it("routes the demo truck around the simulator's low bridge on the bundled network", async () => {
    const body = {
      origin: { lat: 41.5868, lng: -93.625 },
      destination: { lat: 41.525, lng: -88.0817 },
      truck: { profile: "tractor", weight_t: 36, height_m: 4.1 },
      include: ["tolls", "mileage_by_state"]
    }
    const routed = await eventually(async () => {
      const r = await call("/routing/route", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body)
      })
      if (r.status !== 200) throw new Error(`route: ${r.status} ${JSON.stringify(r.body)}`)
      return r.body.avoided.length > 0 ? r.body : undefined
    }, 20_000)
    expect(routed.avoided).toEqual([
      expect.objectContaining({ warning_type: "bridge_clearance", source_id: "5a1f0c2e-0101-4c5e-9a10-000000000101" })
    ])
    const r = routed.routes[0]
    expect(r.summary.mileage_by_state.map((m: { jurisdiction: string }) => m.jurisdiction).sort()).toEqual(["IA", "IL"])
    expect(r.warnings.some((w: { type: string }) => w.type === "bridge_clearance")).toBe(false)
    // a truck under the bridge keeps I-80 and meets no clearance warning
    const low = await call("/routing/route", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...body, truck: { ...body.truck, height_m: 3.7 } })
    })
    expect(low.body.avoided).toEqual([])
    expect(low.body.routes[0].summary.distance_m).toBeLessThan(r.summary.distance_m)
  })

  it("answers 401 without a key and reports health without one", async () => {
    const anon = api(base)
    expect((await anon("/events")).status).toBe(401)
    expect((await anon("/events?api_key=rdk_" + "x".repeat(40))).body).toEqual({
      error: "invalid API key",
      docs_url: "/docs/authentication"
    })
    expect((await anon("/health")).body).toMatchObject({ status: "ok", db: "ok/ok", version: "0.1.0" })
  })
})
