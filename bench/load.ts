/**
 * npm run bench:load — the API under 200 concurrent connections for 60 s (autocannon) while a
 * materializer process ingests 1,000 changes/s offered on the stream:
 *  - API latency p50/p99 and requests/s, every status counted: anything but 2xx and the
 *    deliberate 429s (one key in the mix has a low rate limit) is an error;
 *  - change-to-queryable lag (materialized_at − emitted_at of every change offered) p50/p99,
 *    overall and per 10-s window, so "throughout" shows;
 *  - the floor beside it: a bare Node HTTP server answering a body of the same size, driven the
 *    same way on this machine.
 * Uses DATABASE_URL's server (a scratch database, dropped) and REDIS_URL under its own prefix.
 * BENCH_LOAD_SECONDS, BENCH_CONNECTIONS and BENCH_RATE change the load.
 */
import autocannon from "autocannon"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { spawn } from "node:child_process"
import { createServer } from "node:http"
import { fileURLToPath } from "node:url"
import { createClient } from "redis"
import { createKey } from "../infra/admin/keys.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { fmt, pct, startApi } from "./measure.js"
import { scratch } from "./scratch.js"

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200)
const RATE = Number(process.env.BENCH_RATE ?? 1000)
const PRELOAD = 20_000
const root = fileURLToPath(new URL("..", import.meta.url))

const JURISDICTIONS = ["IA", "NE", "IL", "MN", "MO", "WI"]

/** A creation of event i, emitted now. */
const creation = (i: number) => {
  const at = new Date().toISOString()
  const j = JURISDICTIONS[i % JURISDICTIONS.length]
  return JSON.stringify({
    change_id: `ev_load_${i}:1`, kind: "event", op: "created", event_id: `ev_load_${i}`, source: "load", source_id: `l${i}`, version: 1, at, emitted_at: at, content_hash: "h",
    keys: { jurisdiction: j, type: "construction", sub_type: null, cause: "roadwork", severity: "minor", road_name: "I-80" },
    fields: [{ change_type: "created", old_value: null, new_value: "minor" }],
    event: {
      source_id: `l${i}`, jurisdiction: j, type: "construction", sub_type: null, cause: "roadwork", severity: "minor", status: "active",
      title: `Work zone ${i} on I-80`, description: "lane closed", latitude: 40 + (i % 500) / 100, longitude: -96 + Math.floor(i / 500) % 100 / 20,
      geometry: null, affected_roads: ["I-80"], direction: "eastbound", lanes_affected: "1 lane", start_time: at, end_time: null,
      estimated_start_time: null, estimated_end_time: null, source_created_at: null, source_updated_at: null, road_class: "interstate", metadata: {}
    }
  })
}

const cannon = (opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)))
  })

const statusCounts = (r: autocannon.Result) =>
  Object.fromEntries(Object.entries((r as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {}).map(([k, v]) => [k, v.count]))

const main = async () => {
  console.log(`load benchmark on ${process.arch}, node ${process.version}: ${CONNECTIONS} connections for ${SECONDS} s while ingesting ${fmt(RATE)} changes/s`)
  const world = scratch("load")
  const rt = ManagedRuntime.make(baseLayer(world.config, seedReferenceData).pipe(Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning))))
  const redis = createClient({ url: world.redisUrl })
  await redis.connect()
  const stream = `${world.prefix}:changes`
  let api: Awaited<ReturnType<typeof startApi>> | undefined
  const materializer = { stop: () => undefined as void }
  try {
    const keys = await rt.runPromise(Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const main = yield* createKey({ plan: "enterprise", email: "load@example.com" })
      const throttled = yield* createKey({ plan: "enterprise", email: "throttled@example.com" })
      // the main key may go as fast as the API can; the throttled one gets 429s on purpose
      yield* sql`UPDATE api_keys SET rate_limit_rpm = 100000000 WHERE customer_id = (SELECT id FROM customers WHERE email = 'load@example.com')`
      yield* sql`UPDATE api_keys SET rate_limit_rpm = 60 WHERE customer_id = (SELECT id FROM customers WHERE email = 'throttled@example.com')`
      return { main: main.key, throttled: throttled.key }
    }))
    await redis.xGroupCreate(stream, "materialize", "0", { MKSTREAM: true })
    const child = spawn(process.execPath, ["--import", "tsx", "infra/processes/materializer.ts"], {
      cwd: root, env: { ...process.env, DATABASE_URL: world.dbUrl, REDIS_URL: world.redisUrl, REDIS_PREFIX: world.prefix, LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "inherit"]
    })
    materializer.stop = () => void child.kill("SIGTERM")
    // events to read while the load runs
    for (let off = 0; off < PRELOAD; off += 5000) {
      const m = redis.multi()
      for (let i = off; i < off + 5000; i++) m.xAdd(stream, "*", { c: creation(i) })
      await m.exec()
    }
    const count = () => rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM events`)).then((r) => r[0].n)
    while ((await count()) < PRELOAD) await new Promise((r) => setTimeout(r, 200))
    await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`VACUUM ANALYZE events`))

    api = await startApi(world.dbUrl, world.prefix)
    const sample = await fetch(`${api.base}/events?jurisdiction=IA&limit=50`, { headers: { "X-API-Key": keys.main } })
    const sampleBody = await sample.text()
    if (sample.status !== 200) throw new Error(`warm-up: HTTP ${sample.status} ${sampleBody}`)
    const url = new URL(api.base)
    const h = (key: string) => ({ "x-api-key": key })
    const requests: Array<autocannon.Request> = [
      { method: "GET", path: `${url.pathname}/events?jurisdiction=IA&limit=50`, headers: h(keys.main) },
      { method: "GET", path: `${url.pathname}/events/ev_load_${123}`, headers: h(keys.main) },
      { method: "GET", path: `${url.pathname}/events?bbox=-96,40,-94,42&limit=100`, headers: h(keys.main) },
      { method: "GET", path: `${url.pathname}/events?jurisdiction=NE,IL&severity=minor&limit=20`, headers: h(keys.main) },
      { method: "GET", path: `${url.pathname}/events?lat=41&lng=-95&radius_km=50&limit=50`, headers: h(keys.main) },
      { method: "GET", path: `${url.pathname}/events?jurisdiction=MN&limit=10`, headers: h(keys.throttled) }
    ]

    // each request once, unloaded: what the mix costs before any contention
    const single: Array<string> = []
    for (const r of requests) {
      const t = performance.now()
      const res = await fetch(`${url.origin}${r.path}`, { headers: r.headers as Record<string, string> })
      await res.arrayBuffer()
      single.push(`${r.path!.replace(url.pathname, "")} ${res.status} ${(performance.now() - t).toFixed(0)} ms`)
    }
    console.log(`unloaded   ${single.join("; ")}`)

    // ingest at RATE while the load runs; every change offered is timed by its own row
    let sent = PRELOAD
    let ingesting = true
    const t0 = performance.now()
    const ingest = (async () => {
      while (ingesting) {
        const due = PRELOAD + Math.floor(((performance.now() - t0) / 1000) * RATE)
        if (due > sent) {
          const m = redis.multi()
          for (let i = sent; i < due; i++) m.xAdd(stream, "*", { c: creation(i) })
          await m.exec()
          sent = due
        }
        await new Promise((r) => setTimeout(r, 20))
      }
    })()
    const result = await cannon({ url: url.origin, connections: CONNECTIONS, duration: SECONDS, requests })
    ingesting = false
    await ingest
    while ((await count()) < sent) await new Promise((r) => setTimeout(r, 200))
    const lags = await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ ms: number; window: number }>`
      SELECT extract(epoch FROM (materialized_at - emitted_at)) * 1000 AS ms,
             floor(extract(epoch FROM (emitted_at - min(emitted_at) OVER ())) / 10)::int AS window
      FROM events WHERE split_part(id, '_', 3)::int >= ${PRELOAD}`))
    const statuses = statusCounts(result)
    const errors = Object.entries(statuses).filter(([s]) => !s.startsWith("2") && s !== "429").reduce((n, [, c]) => n + c, 0) + result.errors + result.timeouts
    console.log(`API        ${fmt(result.requests.average)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms over ${fmt(result.requests.total)} requests`)
    console.log(`           statuses ${JSON.stringify(statuses)}; errors other than deliberate 429s: ${errors} (connection errors ${result.errors}, timeouts ${result.timeouts})`)
    const ms = lags.map((l) => Number(l.ms))
    console.log(`lag        ${fmt(ms.length)} changes offered at ${fmt(RATE)}/s: p50 ${pct(ms, 50).toFixed(0)} ms, p99 ${pct(ms, 99).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms`)
    const windows = new Map<number, Array<number>>()
    for (const l of lags) windows.set(l.window, [...(windows.get(l.window) ?? []), Number(l.ms)])
    console.log(`           p99 per 10 s: ${[...windows.entries()].sort((a, b) => a[0] - b[0]).map(([, xs]) => pct(xs, 99).toFixed(0)).join(", ")} ms`)

    // the floor: a bare Node server answering the same bytes, same connections, on this machine
    const bare = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(sampleBody) })
      res.end(sampleBody)
    })
    await new Promise<void>((r) => bare.listen(0, "127.0.0.1", () => r()))
    const floor = await cannon({ url: `http://127.0.0.1:${(bare.address() as { port: number }).port}/`, connections: CONNECTIONS, duration: Math.min(10, SECONDS) })
    bare.close()
    console.log(`floor      bare Node HTTP, same ${fmt(Buffer.byteLength(sampleBody))}-byte body: ${fmt(floor.requests.average)} req/s, p99 ${floor.latency.p99} ms; API ${(result.requests.average / floor.requests.average).toFixed(2)}x its req/s`)
  } finally {
    api?.stop()
    materializer.stop()
    await redis.quit()
    await rt.dispose()
    await world.drop()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
