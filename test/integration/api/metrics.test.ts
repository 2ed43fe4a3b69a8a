import { Effect, Layer, ManagedRuntime, Metric, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { publishOnce } from "../../../pipeline/metrics/MetricsPublisher.js"
import { sourcePolls } from "../../../pipeline/poll/metrics.js"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { Redis } from "../../../shared/db/Redis.js"
import { SqlClient } from "@effect/sql"
import { circuitKey } from "../../../shared/sources/pollState.js"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { freePort, portOpen } from "../../support/processes.js"
import { waitFor } from "../../support/wait.js"

const root = fileURLToPath(new URL("../../..", import.meta.url))
/** redis-server on PATH (the machines this runs on have it; the Redis-away case skips without it) */
const redisServer = (() => {
  try {
    return execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim() || null
  } catch {
    return null
  }
})()

import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/** /metrics is off by default, bearer-protected when on, and shows routes, stream lag and workers' series. */
const env = makeTestEnv()
const ports: Record<string, number> = {}
const rt = ManagedRuntime.make(
  Layer.mergeAll(
    ApiServerLive({ port: 0, onListen: (p) => (ports.closed = p) }),
    ApiServerLive({ port: 0, onListen: (p) => (ports.open = p) }).pipe(
      Layer.provide(AppConfig.make({ metricsToken: Redacted.make("s3cret-token") }))
    )
  ).pipe(Layer.provideMerge(env.layer))
)
const url = (which: string, path: string) => `http://127.0.0.1:${ports[which]}${path}`

beforeAll(async () => {
  await rt.runtime()
})
const children: Array<ChildProcess> = []
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL")
  const t0 = performance.now()
  await rt.dispose()
  // its afterAll timed out once on a loaded CI machine: say how long the servers took to close
  const took = performance.now() - t0
  if (took > 10_000) console.warn(`metrics test: closing the two API servers took ${Math.round(took)} ms`)
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
    await rt.runPromise(
      Effect.gen(function* () {
        const redis = yield* Redis
        const stream = redis.key("changes")
        yield* redis.use("setup", async (c) => {
          await c.xGroupCreate(stream, "materialize", "0", { MKSTREAM: true })
          for (let i = 0; i < 3; i++) await c.xAdd(stream, "*", { v: String(i) })
          await c.xReadGroup("materialize", "c1", { key: stream, id: ">" }, { COUNT: 1 })
        })
        yield* Metric.incrementBy(Metric.tagged(Metric.tagged(sourcePolls, "source", "src-a"), "outcome", "ok"), 4)
        yield* publishOnce("worker-1")
      })
    )
    const text = await (
      await fetch(url("open", "/metrics"), { headers: { Authorization: "Bearer s3cret-token" } })
    ).text()
    // this worker's own, labelled with it (a scrape reaches one of the API's workers and shows all)
    expect(text).toMatch(
      /http_requests_total\{route="\/api\/v1\/events",method="GET",status="200",worker="api-\d+"\} 1/
    )
    expect(text).toMatch(
      /http_requests_total\{route="\/api\/v1\/events\/:id",method="GET",status="404",worker="api-\d+"\} 1/
    )
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{[^}]*le="[^"]+"[^}]*route="\/api\/v1\/events"[^}]*\}|http_request_duration_seconds_bucket\{[^}]*route="\/api\/v1\/events"[^}]*le="[^"]+"[^}]*\}/
    )
    // 2 never delivered + 1 delivered and not acknowledged
    expect(text).toMatch(/stage_lag_messages\{group="materialize"\} 3/)
    expect(text).toMatch(/# TYPE pipeline_source_polls_total counter/)
    expect(text).toMatch(/pipeline_source_polls_total\{source="src-a",outcome="ok",worker="worker-1"\} 4/)
  })

  it("shows what operators' alerts read: stores up, circuits open, subscriptions switched off, stage lag in seconds", async () => {
    const scrape = async (which: string) =>
      (await fetch(url(which, "/metrics"), { headers: { Authorization: "Bearer s3cret-token" } })).text()
    await rt.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const redis = yield* Redis
        yield* sql`INSERT INTO sources (id, adapter, jurisdiction, url, poll_interval_s) VALUES ('ops-open', 'wzdx', 'IA', 'http://127.0.0.1:9/a', 60), ('ops-shut', 'wzdx', 'IA', 'http://127.0.0.1:9/b', 60)`
        yield* redis.use("circuit", (c) =>
          c.set(
            circuitKey(redis, "ops-open"),
            JSON.stringify({ failures: 5, openUntil: Date.now() + 600_000, cooldownMs: 600_000 })
          )
        )
        const { customerId: id } = yield* createKey({ plan: "pro", email: "ops-metrics@example.com" })
        yield* sql`INSERT INTO webhook_subscriptions (id, customer_id, url, secret_enc, secret_hint, jurisdictions, match_jurisdictions, is_enabled, disabled_reason)
        VALUES ('wh_ops1', ${id}, 'https://example.com/a', decode('00', 'hex'), 'x', '{IA}', '{IA}', false, 'failures'),
               ('wh_ops2', ${id}, 'https://example.com/b', decode('00', 'hex'), 'x', '{IA}', '{IA}', false, 'failures'),
               ('wh_ops3', ${id}, 'https://example.com/c', decode('00', 'hex'), 'x', '{IA}', '{IA}', true, null)`
      })
    )
    const text = await scrape("open")
    expect(text).toMatch(/dependency_up\{dependency="postgres"\} 1/)
    expect(text).toMatch(/dependency_up\{dependency="redis"\} 1/)
    expect(text).toMatch(/pipeline_source_circuit_open\{source="ops-open"\} 1/)
    expect(text).toMatch(/pipeline_source_circuit_open\{source="ops-shut"\} 0/)
    expect(text).toMatch(/webhook_subscriptions_disabled\{reason="failures"\} 2/)
    expect(text).toMatch(/webhook_subscriptions_disabled\{reason="gone"\} 0/)
    // the group made above holds entries it has not finished: their age, in seconds
    expect(text).toMatch(/stage_lag_seconds\{group="materialize"\} \d/)
  }, 30_000)

  it.skipIf(!redisServer)(
    "answers a scrape with its Redis gone, saying so in dependency_up",
    async () => {
      // an API process on a Redis of this test's own, which is then killed
      const redisPort = await freePort()
      const { LD_PRELOAD: _preload, FAKETIME: _faketime, ...realClock } = process.env
      const redis = spawn(
        redisServer!,
        ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        { stdio: "ignore", env: realClock }
      )
      children.push(redis)
      await waitFor(() => portOpen(redisPort), 10_000)
      const port = await freePort()
      const apiProcess = spawn(process.execPath, ["--import", "tsx", "infra/processes/api.ts"], {
        cwd: root,
        stdio: "ignore",
        env: {
          ...process.env,
          DATABASE_URL: env.dbUrl,
          REDIS_URL: `redis://127.0.0.1:${redisPort}`,
          REDIS_PREFIX: env.prefix,
          PORT: String(port),
          API_WORKERS: "1",
          ROUTING_PRELOAD: "false",
          METRICS_TOKEN: "s3cret-token",
          LOG_LEVEL: "warn"
        }
      })
      children.push(apiProcess)
      const scrape = () =>
        fetch(`http://127.0.0.1:${port}/metrics`, { headers: { Authorization: "Bearer s3cret-token" } })
      await waitFor(
        () =>
          fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
            (r) => r.status === 200,
            () => false
          ),
        60_000
      )
      expect(await (await scrape()).text()).toMatch(/dependency_up\{dependency="redis"\} 1/)
      redis.kill("SIGKILL")
      await new Promise((resolve) => redis.once("exit", resolve))
      const away = await scrape()
      expect(away.status).toBe(200)
      const text = await away.text()
      expect(text).toMatch(/dependency_up\{dependency="redis"\} 0/)
      expect(text).toMatch(/dependency_up\{dependency="postgres"\} 1/)
      // what needs only Postgres is still there; what needs Redis is left out
      expect(text).toMatch(/webhook_subscriptions_disabled\{reason="failures"\} \d/)
      expect(text).not.toMatch(/pipeline_source_circuit_open\{/)
    },
    90_000
  )
})
