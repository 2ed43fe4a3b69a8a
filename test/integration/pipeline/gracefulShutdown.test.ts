import { SqlClient } from "@effect/sql"
import { Effect, Fiber, Layer, ManagedRuntime } from "effect"
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { createServer, type Socket } from "node:net"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { PipelineServices } from "../../../pipeline/PipelineLive.js"
import { runMaterializer } from "../../../pipeline/stages/materialize/Materializer.js"
import { RedisStreams } from "../../../shared/bus/RedisStreams.js"
import { Redis } from "../../../shared/db/Redis.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { groupDrained, publish, waitUntil } from "../../support/stream.js"
import { freePort, portOpen } from "../../support/processes.js"
import { createKey } from "../../../infra/admin/keys.js"

/**
 * SIGTERM on real processes (tsx children on this test's database and Redis prefix): a
 * materializer finishes what it read, acks it, leaves its group and exits 0; the API answers 503
 * on /health while it drains, then exits 0.
 */
const env = makeTestEnv()
/** redis-server on PATH (the machines this runs on have it; the Redis fault case skips without it) */
const redisServer = (() => {
  try {
    return execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim() || null
  } catch {
    return null
  }
})()
const rt = ManagedRuntime.make(PipelineServices.pipe(Layer.provideMerge(env.layer)))
const run = <A, E>(e: Effect.Effect<A, E, any>) => rt.runPromise(e as Effect.Effect<A, E, never>)
const root = fileURLToPath(new URL("../../..", import.meta.url))
const children: Array<ChildProcess> = []
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL")
  await rt.dispose()
  await env.cleanup()
})

const start = (script: string, extra: Record<string, string> = {}) => {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: env.dbUrl,
      REDIS_URL: env.redisUrl,
      REDIS_PREFIX: env.prefix,
      LOG_LEVEL: "info",
      ...extra
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.push(child)
  let log = ""
  child.stdout!.on("data", (d) => (log += d))
  child.stderr!.on("data", (d) => (log += d))
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
    let t0 = 0
    child.once("exit", (code) => resolve({ code, ms: performance.now() - t0 }))
    ;(child as unknown as { markStop: () => void }).markStop = () => (t0 = performance.now())
  })
  const stop = () => {
    ;(child as unknown as { markStop: () => void }).markStop()
    child.kill("SIGTERM")
  }
  return { child, exited, stop, log: () => log }
}

const count = (table: "events" | "event_history") =>
  run(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`)
  ).then((r) => r[0].n)

describe("graceful shutdown", () => {
  it("a materializer stopped mid-stream writes and acks what it read, leaves its group, holds nothing, and exits 0", async () => {
    const changes = changeScript("drain", [
      Array.from({ length: 30_000 }, (_, i) =>
        observation(`d-${i}`, { latitude: 40 + (i % 100) / 100, longitude: -74 - Math.floor(i / 100) / 100 })
      )
    ])
    await run(
      Effect.gen(function* () {
        const streams = yield* RedisStreams
        yield* streams.ensureGroup("materialize")
        yield* publish(changes)
      })
    )
    const m = start("infra/processes/materializer.ts", { SHUTDOWN_TIMEOUT_MS: "15000" })
    await run(
      waitUntil(
        Effect.promise(() => count("events").then((n) => n > 1000)),
        60_000
      )
    )
    m.stop()
    const exit = await m.exited
    expect(exit.code, m.log()).toBe(0)
    expect(exit.ms).toBeLessThan(15_000)
    expect(m.log()).toContain("drained; consumer")

    const { consumers, group } = await run(
      Effect.gen(function* () {
        const redis = yield* Redis
        const streams = yield* RedisStreams
        const consumers = yield* redis.use("xinfo", (c) =>
          c.sendCommand<Array<Array<unknown>>>(["XINFO", "CONSUMERS", streams.streamKey, "materialize"])
        )
        const group = (yield* streams.groups).find((g) => g.group === "materialize")!
        return { consumers, group }
      })
    )
    // nothing left claimed: the stopped consumer's name is gone, no message pending
    expect(consumers).toEqual([])
    expect(group.pending).toBe(0)
    // what it acked is exactly what it wrote; the rest is still unread, for the next consumer
    const written = await count("events")
    expect(written).toBeLessThan(30_000)
    expect(group.lag).toBe(30_000 - written)

    await run(
      Effect.gen(function* () {
        const fiber = yield* Effect.fork(
          runMaterializer({
            group: "materialize",
            consumer: "after",
            batchSize: 1000,
            blockMs: 100,
            claimIdleMs: 60_000,
            maxDeliveries: 5
          })
        )
        yield* waitUntil(groupDrained("materialize"), 60_000)
        yield* Fiber.interrupt(fiber)
      })
    )
    expect(await count("events")).toBe(30_000)
    expect(await count("event_history")).toBe(30_000)
  }, 120_000)

  it("the API answers 503 on /health while it drains, then stops listening and exits 0", async () => {
    const port = 3900 + Math.floor(Math.random() * 90)
    const api = start("infra/processes/api.ts", {
      PORT: String(port),
      DRAIN_GRACE_MS: "1500",
      SHUTDOWN_TIMEOUT_MS: "8000",
      API_WORKERS: "1"
    })
    const health = () =>
      fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        async (r) => ({ status: r.status, body: await r.json() }),
        () => null
      )
    await run(
      waitUntil(
        Effect.promise(() => health().then((h) => h?.status === 200)),
        60_000
      )
    )
    api.stop()
    await new Promise((r) => setTimeout(r, 300))
    const during = await health()
    expect(during).toMatchObject({ status: 503, body: { status: "degraded", db: "ok/ok" } })
    const exit = await api.exited
    expect(exit.code, api.log()).toBe(0)
    expect(exit.ms).toBeGreaterThanOrEqual(1500)
    expect(exit.ms).toBeLessThan(8000)
    expect(await health()).toBeNull()
  }, 120_000)

  it.skipIf(!redisServer).each(["1", "2"])(
    "an API (%s workers) whose Redis has gone away still exits 0 within SHUTDOWN_TIMEOUT_MS on SIGTERM",
    async (workers) => {
      // a Redis of this test's own, so it can be stopped without touching anyone else's
      const redisPort = await freePort()
      // with the machine's clock, as the shared Redis has: the year-ahead run's libfaketime is for Node processes only
      const { LD_PRELOAD: _preload, FAKETIME: _faketime, ...realClock } = process.env
      const redis = spawn(
        redisServer!,
        ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        { stdio: "ignore", env: realClock }
      )
      children.push(redis)
      await run(
        waitUntil(
          Effect.promise(() => portOpen(redisPort)),
          10_000
        )
      )
      const port = await freePort()
      const api = start("infra/processes/api.ts", {
        PORT: String(port),
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        DRAIN_GRACE_MS: "500",
        SHUTDOWN_TIMEOUT_MS: "6000",
        ROUTING_PRELOAD: "false",
        API_WORKERS: workers
      })
      await run(
        waitUntil(
          Effect.promise(() =>
            fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
              (r) => r.status === 200,
              () => false
            )
          ),
          60_000
        )
      )
      redis.kill("SIGKILL")
      await new Promise((resolve) => redis.once("exit", resolve))
      api.stop()
      const exit = await api.exited
      expect(exit.code, api.log()).toBe(0)
      expect(exit.ms).toBeLessThan(6000)
      expect(api.log()).toContain("every part drained")
    },
    120_000
  )

  it.skipIf(!redisServer)(
    "an API whose Redis goes away answers keyed requests 503 with Retry-After at once, and 200 when it is back",
    async () => {
      const { LD_PRELOAD: _preload, FAKETIME: _faketime, ...realClock } = process.env
      const redisPort = await freePort()
      const startRedis = () => {
        const r = spawn(
          redisServer!,
          ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
          { stdio: "ignore", env: realClock }
        )
        children.push(r)
        return r
      }
      let redis = startRedis()
      await run(
        waitUntil(
          Effect.promise(() => portOpen(redisPort)),
          10_000
        )
      )
      const { key } = await run(createKey({ plan: "pro", email: "redis-away@example.com" }))
      const port = await freePort()
      const api = start("infra/processes/api.ts", {
        PORT: String(port),
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        ROUTING_PRELOAD: "false",
        API_WORKERS: "1"
      })
      const events = () =>
        fetch(`http://127.0.0.1:${port}/api/v1/events?limit=1`, {
          headers: { "X-API-Key": key },
          signal: AbortSignal.timeout(10_000)
        })
      await run(
        waitUntil(
          Effect.promise(() =>
            fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
              (r) => r.status === 200,
              () => false
            )
          ),
          60_000
        )
      )
      expect((await events()).status).toBe(200)
      redis.kill("SIGKILL")
      await new Promise((resolve) => redis.once("exit", resolve))
      const t0 = performance.now()
      const away = await events()
      expect(away.status, api.log()).toBe(503)
      expect(away.headers.get("retry-after")).toBe("5")
      // answered, not left waiting on the rate limit until Redis comes back
      expect(performance.now() - t0).toBeLessThan(3000)
      redis = startRedis()
      await run(
        waitUntil(
          Effect.promise(() =>
            events().then(
              (r) => r.status === 200,
              () => false
            )
          ),
          30_000
        )
      )
      api.stop()
      expect((await api.exited).code, api.log()).toBe(0)
    },
    120_000
  )

  it("an API still connecting to a Redis that is away stops on SIGTERM at once, cleanly", async () => {
    // a "Redis" that accepts connections and never answers: the API is connecting once it knocks,
    // which also says its modules are loaded and its stop handler is in place
    const sockets: Array<Socket> = []
    let knocked!: () => void
    const knock = new Promise<void>((r) => (knocked = r))
    const silent = createServer((socket) => {
      sockets.push(socket)
      knocked()
    })
    const redisPort = await new Promise<number>((r) =>
      silent.listen(0, "127.0.0.1", () => r((silent.address() as { port: number }).port))
    )
    try {
      const api = start("infra/processes/api.ts", {
        PORT: String(await freePort()),
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        SHUTDOWN_TIMEOUT_MS: "6000",
        ROUTING_PRELOAD: "false",
        API_WORKERS: "1"
      })
      await knock
      const t0 = Date.now()
      api.stop()
      const exit = await api.exited
      expect(exit.code, api.log()).toBe(0)
      expect(Date.now() - t0).toBeLessThan(3000)
    } finally {
      for (const s of sockets) s.destroy()
      silent.close()
    }
  }, 60_000)
})
