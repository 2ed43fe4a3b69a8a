import { Effect, Layer, ManagedRuntime, Metric, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../api/server.js"
import { createKey } from "../../infra/admin/keys.js"
import { publishOnce } from "../../pipeline/metrics/MetricsPublisher.js"
import { sourcePolls } from "../../pipeline/poll/metrics.js"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { Redis } from "../../shared/db/Redis.js"
import { makeTestEnv } from "../support/harness.js"
import { api } from "../support/http.js"

/** /metrics is off by default, bearer-protected when on, and shows routes, stream lag and workers' series. */
const env = makeTestEnv()
const ports: Record<string, number> = {}
const rt = ManagedRuntime.make(
  Layer.mergeAll(
    ApiServerLive({ port: 0, onListen: (p) => (ports.closed = p) }),
    ApiServerLive({ port: 0, onListen: (p) => (ports.open = p) }).pipe(Layer.provide(AppConfig.make({ metricsToken: Redacted.make("s3cret-token") })))
  ).pipe(Layer.provideMerge(env.layer))
)
const url = (which: string, path: string) => `http://127.0.0.1:${ports[which]}${path}`

beforeAll(async () => {
  await rt.runtime()
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

describe("GET /metrics", () => {
  it("is not exposed without METRICS_TOKEN", async () => {
    expect((await fetch(url("closed", "/metrics"))).status).toBe(404)
  })

  it("needs the bearer token when exposed", async () => {
    expect((await fetch(url("open", "/metrics"))).status).toBe(401)
    expect((await fetch(url("open", "/metrics"), { headers: { Authorization: "Bearer wrong" } })).status).toBe(401)
    const ok = await fetch(url("open", "/metrics"), { headers: { Authorization: "Bearer s3cret-token" } })
    expect(ok.status).toBe(200)
    expect(ok.headers.get("content-type")).toMatch(/text\/plain/)
  })

  it("counts requests per route template, shows stream lag per group and every live worker's series", async () => {
    const { key } = await rt.runPromise(createKey({ plan: "pro", email: "metrics@example.com" }))
    const call = api(url("open", "/api/v1"), key)
    await call("/events?limit=1")
    await call("/events/ev_missing")
    await rt.runPromise(Effect.gen(function* () {
      const redis = yield* Redis
      const stream = redis.key("changes")
      yield* redis.use("setup", async (c) => {
        await c.xGroupCreate(stream, "materialize", "0", { MKSTREAM: true })
        for (let i = 0; i < 3; i++) await c.xAdd(stream, "*", { v: String(i) })
        await c.xReadGroup("materialize", "c1", { key: stream, id: ">" }, { COUNT: 1 })
      })
      yield* Metric.incrementBy(Metric.tagged(Metric.tagged(sourcePolls, "source", "src-a"), "outcome", "ok"), 4)
      yield* publishOnce("worker-1")
    }))
    const text = await (await fetch(url("open", "/metrics"), { headers: { Authorization: "Bearer s3cret-token" } })).text()
    expect(text).toMatch(/http_requests_total\{route="\/api\/v1\/events",method="GET",status="200"\} 1/)
    expect(text).toMatch(/http_requests_total\{route="\/api\/v1\/events\/:id",method="GET",status="404"\} 1/)
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="[^"]+",route="\/api\/v1\/events",method="GET"\}/)
    // 2 never delivered + 1 delivered and not acknowledged
    expect(text).toMatch(/stage_lag_messages\{group="materialize"\} 3/)
    expect(text).toMatch(/# TYPE pipeline_source_polls_total counter/)
    expect(text).toMatch(/pipeline_source_polls_total\{source="src-a",outcome="ok",worker="worker-1"\} 4/)
  })
})
