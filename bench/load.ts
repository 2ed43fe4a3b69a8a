/**
 * npm run bench:load — the API role (API_WORKERS processes, default one per core) under
 * BENCH_CONNECTIONS (200) connections while a materializer ingests BENCH_RATE (1,000) changes/s
 * (updates of the 20,000 preloaded events, so every phase reads a table of the same size):
 *  1. polling mix: a few identical questions asked over and over, as navigation and fleet apps
 *     poll (answered by the shared response cache); requests/s and latency, every status counted:
 *     anything but 2xx and the deliberate 429s (one key has a low limit) is an error;
 *  2. freshness through the cache: during 1, a probe event is written every 500 ms and a
 *     poller asks the cached question until it shows; change-to-visible = first seen − the row's
 *     materialized_at (p50/p99);
 *  3. distinct mix: every request a question never asked before (radius, bbox, filters, pages,
 *     details), so no answer is shared: the uncached read path;
 *  4. the floors, in the same run on the same rows: the statements the handlers send for each mix
 *     (captured at the driver), issued straight to Postgres at the same concurrency through as
 *     many connections as the API workers hold; and a bare Node HTTP server answering a body of
 *     the same size. distinct_floor_ratio = API / SQL floor for the distinct mix.
 * Ends with one JSON line of figures. Uses DATABASE_URL's server (a scratch database, dropped) and
 * REDIS_URL under its own prefix. BENCH_LOAD_SECONDS (per phase, 30), BENCH_CONNECTIONS,
 * BENCH_RATE and API_WORKERS change the load. BENCH_TRACING=on runs the API workers and the
 * materializer with tracing on (OTLP to a span sink in this process), to set beside a run
 * without it (what traces cost).
 */
import autocannon from "autocannon"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Redacted } from "effect"
import { spawn } from "node:child_process"
import { createServer } from "node:http"
import { availableParallelism } from "node:os"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { createClient } from "redis"
import { createKey } from "../infra/admin/keys.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { RedisStreams } from "../shared/bus/RedisStreams.js"
import { bucketsSince, handlerLatency, METRICS_TOKEN } from "./appLatency.js"
import { fmt, pct, spanSink, startApi } from "./measure.js"
import { scratch } from "./scratch.js"
import { cpuMeter } from "./cpu.js"
import { driveFloor, recordStatementSets, statementCounts } from "./sqlFloor.js"
import { seededRandom } from "./random.js"

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 30)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200)
const RATE = Number(process.env.BENCH_RATE ?? 1000)
const WORKERS = Number(process.env.API_WORKERS ?? availableParallelism())
const TRACING = process.env.BENCH_TRACING === "on"

const POOL_PER_WORKER = 10
const PRELOAD = 20_000
const FLOOR_SETS = 400
const root = fileURLToPath(new URL("..", import.meta.url))

const JURISDICTIONS = ["IA", "NE", "IL", "MN", "MO", "WI"]
/** probes live alone in KS, so the question that finds them is one of the polled ones */
const PROBE_JURISDICTION = "KS"

const eventChange = (id: string, j: string, lat: number, lng: number, version = 1) => {
  const at = new Date().toISOString()
  // versions after the first flip the severity: an update, the commonest change in steady state
  const severity = version % 2 === 1 ? "minor" : "moderate"
  return JSON.stringify({
    change_id: `${id}:${version}`,
    kind: "event",
    op: version === 1 ? "created" : "updated",
    event_id: id,
    source: "load",
    source_id: id,
    version,
    at,
    emitted_at: at,
    content_hash: `h${version}`,
    keys: { jurisdiction: j, type: "construction", sub_type: null, cause: "roadwork", severity, road_name: "I-80" },
    fields: [
      version === 1
        ? { change_type: "created", old_value: null, new_value: severity }
        : {
            change_type: "severity_change",
            old_value: severity === "minor" ? "moderate" : "minor",
            new_value: severity
          }
    ],
    event: {
      source_id: id,
      jurisdiction: j,
      type: "construction",
      sub_type: null,
      cause: "roadwork",
      severity,
      status: "active",
      title: `Work zone ${id} on I-80`,
      description: "lane closed",
      latitude: lat,
      longitude: lng,
      geometry: null,
      affected_roads: ["I-80"],
      direction: "eastbound",
      lanes_affected: "1 lane",
      start_time: at,
      end_time: null,
      estimated_start_time: null,
      estimated_end_time: null,
      source_created_at: null,
      source_updated_at: null,
      road_class: "interstate",
      metadata: {}
    }
  })
}
/** Event i (of the preloaded ones) at a version, emitted now: spread over 5° × 5° of the Midwest. */
const change = (i: number, version = 1) =>
  eventChange(
    `ev_load_${i}`,
    JURISDICTIONS[i % JURISDICTIONS.length],
    40 + (i % 500) / 100,
    -96 + (Math.floor(i / 500) % 100) / 20,
    version
  )
/**
 * The k-th change offered under load: an update of a preloaded event, so every phase reads a table of the same size.
 */
const update = (k: number) => change(k % PRELOAD, 2 + Math.floor(k / PRELOAD))

const rand = seededRandom(11)
const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(rand() * xs.length)]

const two = (x: number) => String(Math.floor(x)).padStart(2, "0")

/**
 * A question nobody asked before: the parameters are drawn afresh every time (from about half a million instants for
 * the `updated_after` kind, which once had only 360 values).
 */
const distinctPath = () => {
  const lat = (40 + rand() * 5).toFixed(4)
  const lng = (-96 + rand() * 5).toFixed(4)
  switch (Math.floor(rand() * 5)) {
    case 0:
      return `/events?lat=${lat}&lng=${lng}&radius_km=${10 + Math.floor(rand() * 40)}&limit=50`
    case 1:
      return `/events?bbox=${lng},${lat},${(Number(lng) + 0.5 + rand()).toFixed(4)},${(Number(lat) + 0.5 + rand()).toFixed(4)}&limit=100`
    case 2:
      return `/events?jurisdiction=${pick(JURISDICTIONS)},${pick(JURISDICTIONS)}&severity=minor&limit=${10 + Math.floor(rand() * 40)}&offset=${Math.floor(rand() * 2000)}`
    case 3:
      return `/events/ev_load_${Math.floor(rand() * PRELOAD)}`
    default:
      return `/events?jurisdiction=${pick(JURISDICTIONS)}&road=I-80&updated_after=2020-01-01T${two(rand() * 24)}:${two(rand() * 60)}:${two(rand() * 60)}Z&limit=25`
  }
}

const cannon = (opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)))
  })

const statusCounts = (r: autocannon.Result) =>
  Object.fromEntries(
    Object.entries((r as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {}).map(
      ([k, v]) => [k, v.count]
    )
  )
const errorsOf = (r: autocannon.Result) =>
  Object.entries(statusCounts(r))
    .filter(([s]) => !s.startsWith("2") && s !== "429")
    .reduce((n, [, c]) => n + c, 0) +
  r.errors +
  r.timeouts
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const main = async () => {
  console.log(
    `load benchmark on ${process.arch}, node ${process.version}, ${availableParallelism()} cores: ${WORKERS} API workers, ${CONNECTIONS} connections, ${SECONDS} s per phase, ingesting ${fmt(RATE)} changes/s`
  )
  const world = scratch("load")
  const rt = ManagedRuntime.make(
    baseLayer(world.config, seedReferenceData).pipe(Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning)))
  )
  const redis = createClient({ url: world.redisUrl })
  await redis.connect()
  const stream = `${world.prefix}:changes`
  const pool = new pg.Pool({ connectionString: world.dbUrl, max: WORKERS * POOL_PER_WORKER })
  let api: Awaited<ReturnType<typeof startApi>> | undefined
  const sink = TRACING ? await spanSink() : undefined
  const traceEnv = sink?.env ?? {}
  const materializer = { stop: () => undefined as void }
  const sql = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
    rt.runPromise(Effect.flatMap(SqlClient.SqlClient, f))
  try {
    const keys = await rt.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const main = yield* createKey({ plan: "enterprise", email: "load@example.com" })
        const throttled = yield* createKey({ plan: "enterprise", email: "throttled@example.com" })
        // the main key may go as fast as the API can; the throttled one gets 429s on purpose
        yield* sql`UPDATE api_keys SET rate_limit_rpm = 100000000 WHERE customer_id = (SELECT id FROM customers WHERE email = 'load@example.com')`
        yield* sql`UPDATE api_keys SET rate_limit_rpm = 60 WHERE customer_id = (SELECT id FROM customers WHERE email = 'throttled@example.com')`
        return { main: main.key, throttled: throttled.key }
      })
    )
    await redis.xGroupCreate(stream, "materialize", "0", { MKSTREAM: true })
    const child = spawn(process.execPath, ["--import", "tsx", "infra/processes/materializer.ts"], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: world.dbUrl,
        REDIS_URL: world.redisUrl,
        REDIS_PREFIX: world.prefix,
        LOG_LEVEL: "warn",
        ...traceEnv
      },
      stdio: ["ignore", "ignore", "inherit"]
    })
    materializer.stop = () => void child.kill("SIGTERM")
    for (let off = 0; off < PRELOAD; off += 5000) {
      const m = redis.multi()
      for (let i = off; i < off + 5000; i++) m.xAdd(stream, "*", { c: change(i) })
      await m.exec()
    }
    const count = () => sql((s) => s<{ n: number }>`SELECT count(*)::int AS n FROM events`).then((r) => r[0].n)
    while ((await count()) < PRELOAD) await sleep(200)
    await sql((s) => s`VACUUM ANALYZE events`)

    const h = (key: string) => ({ "x-api-key": key })
    const pollingPaths = [
      "/events?jurisdiction=IA&limit=50",
      `/events/ev_load_123`,
      "/events?bbox=-96,40,-94,42&limit=100",
      "/events?jurisdiction=NE,IL&severity=minor&limit=20",
      "/events?lat=41&lng=-95&radius_km=50&limit=50",
      `/events?jurisdiction=${PROBE_JURISDICTION}&limit=100`
    ]
    // the floors' statements, captured before any load (the same rows the API will read)
    const distinctSample = Array.from({ length: FLOOR_SETS }, distinctPath)
    const distinctSets = await recordStatementSets(settingsOf(world), keys.main, distinctSample)
    const pollingSets = await recordStatementSets(settingsOf(world), keys.main, pollingPaths)
    const dc = statementCounts(distinctSets)
    const pcount = statementCounts(pollingSets)
    console.log(
      `statements the handlers send: polling mix ${pcount.perRequest.toFixed(1)} per request (${pcount.min}–${pcount.max}); distinct mix ${dc.perRequest.toFixed(1)} per request (${dc.min}–${dc.max}), over ${FLOOR_SETS} sampled questions`
    )

    // routing is not measured here: its network would load in every worker while the load starts
    api = await startApi(world.dbUrl, world.prefix, {
      API_WORKERS: String(WORKERS),
      ROUTING_PRELOAD: "false",
      METRICS_TOKEN,
      ...traceEnv
    })
    const url = new URL(api.base)
    const sample = await fetch(`${api.base}${pollingPaths[0]}`, { headers: { "X-API-Key": keys.main } })
    const sampleBody = await sample.text()
    if (sample.status !== 200) throw new Error(`warm-up: HTTP ${sample.status} ${sampleBody}`)
    const unloaded: Array<string> = []
    for (const p of pollingPaths) {
      const t = performance.now()
      const res = await fetch(`${api.base}${p}`, { headers: { "X-API-Key": keys.main } })
      await res.arrayBuffer()
      unloaded.push(`${p} ${res.status} ${(performance.now() - t).toFixed(0)} ms`)
    }
    console.log(`unloaded   ${unloaded.join("; ")}`)

    // ingest at RATE from here to the end of the floors; every change offered is timed by its own row
    let sent = 0
    let ingesting = true
    const t0 = performance.now()
    const ingest = (async () => {
      while (ingesting) {
        const due = Math.floor(((performance.now() - t0) / 1000) * RATE)
        if (due > sent) {
          const m = redis.multi()
          for (let k = sent; k < due; k++) m.xAdd(stream, "*", { c: update(k) })
          await m.exec()
          sent = due
        }
        await sleep(20)
      }
    })()

    // The materializer's backlog every 250 ms, by phase. The ingest lag printed at the end is each
    // event's last update, and those fall in the last 20 s of the ingest: the floors' phases. This
    // says how far behind the ingest ran while the API itself was measured.
    const materializerBehind = async () => {
      const groups = await rt.runPromise(
        Effect.provide(
          Effect.flatMap(RedisStreams, (s) => s.groups),
          RedisStreams.layer
        )
      )
      return groups.filter((g) => g.group === "materialize").reduce((n, g) => n + (g.lag ?? 0) + g.pending, 0)
    }
    let phase = "polling"
    const backlog = new Map<string, Array<number>>()
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const behind = await materializerBehind().catch(() => undefined)
        if (behind !== undefined && phase !== "waiting") backlog.set(phase, [...(backlog.get(phase) ?? []), behind])
        await sleep(250)
      }
    })()
    // 1 + 2: the polling mix, with probes timed through the cache
    const probes: Array<{ id: string; seenAt: number }> = []
    let probing = true
    const probe = (async () => {
      for (let k = 0; probing; k++) {
        const id = `ev_probe_${k}`
        await redis.xAdd(stream, "*", {
          c: eventChange(id, PROBE_JURISDICTION, 38.5 + (k % 50) / 100, -98 + (k % 40) / 100)
        })
        const started = performance.now()
        while (probing && performance.now() - started < 5000) {
          const r = await fetch(`${api!.base}${pollingPaths[5]}`, { headers: { "X-API-Key": keys.main } })
          if ((await r.text()).includes(`"${id}"`)) {
            probes.push({ id, seenAt: Date.now() })
            break
          }
          await sleep(10)
        }
        await sleep(500)
      }
    })()
    // where the polling mix's tail comes from: the time inside the API's app (its request
    // histogram, every worker's, before and after the phase) against what the client saw, and the
    // bench's own event-loop delay (a starved client adds its own wait to every latency it reports)
    const before = await handlerLatency(url.origin)
    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()
    const polling = await cannon({
      url: url.origin,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        ...pollingPaths.map((p) => ({ method: "GET" as const, path: `${url.pathname}${p}`, headers: h(keys.main) })),
        { method: "GET", path: `${url.pathname}/events?jurisdiction=MN&limit=10`, headers: h(keys.throttled) }
      ]
    })
    loop.disable()
    const clientLoopP99Ms = loop.percentile(99) / 1e6
    probing = false
    await probe
    // the workers publish their counters every 5 s
    await sleep(6000)
    const inApp = bucketsSince(before, await handlerLatency(url.origin))
    const probeRows = await sql(
      (s) =>
        s<{
          id: string
          at: number
        }>`SELECT id, extract(epoch FROM materialized_at) * 1000 AS at FROM events WHERE id = ANY(${probes.map((p) => p.id)})`
    )
    const materializedAt = new Map(probeRows.map((r) => [r.id, Number(r.at)]))
    const fresh = probes
      .filter((p) => materializedAt.has(p.id))
      .map((p) => Math.max(0, p.seenAt - materializedAt.get(p.id)!))

    // the ingest keeps running; each distinct phase starts once the materializer has caught up, so
    // neither side is charged for the backlog the phase before it left (the polling phase leaves
    // up to a second or two of changes)
    const caughtUp = async () => {
      const was = phase
      phase = "waiting"
      const started = performance.now()
      for (;;) {
        if ((await materializerBehind()) <= RATE / 10 || performance.now() - started > 30_000) {
          phase = was
          return (performance.now() - started) / 1000
        }
        await sleep(100)
      }
    }
    const cpu: Record<string, Record<string, number>> = {}
    const waits: Array<number> = [await caughtUp()]
    // 3: the distinct mix, no answer shared
    phase = "API distinct"
    let meter = cpuMeter()
    const distinct = await cannon({
      url: url.origin,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: "GET",
          headers: h(keys.main),
          setupRequest: (req) => ({ ...req, path: `${url.pathname}${distinctPath()}` })
        }
      ]
    })
    cpu.distinct = meter()
    // 4: the SQL floors at the same concurrency, through as many connections as the workers hold
    waits.push(await caughtUp())
    phase = "distinct floor"
    meter = cpuMeter()
    const distinctFloor = await driveFloor(pool, distinctSets, CONNECTIONS, SECONDS * 1000)
    cpu.distinctFloor = meter()
    phase = "polling floor"
    const pollingFloor = await driveFloor(pool, pollingSets, CONNECTIONS, Math.min(10, SECONDS) * 1000)
    sampling = false
    await sampler
    ingesting = false
    await ingest
    // every update applied: the history holds one row per change offered
    const applied = () =>
      sql(
        (s) => s<{ n: number }>`SELECT count(*)::int AS n FROM event_history WHERE change_type = 'severity_change'`
      ).then((r) => r[0].n)
    while ((await applied()) < sent) await sleep(200)
    // each event's last update: offered (emitted_at) to queryable (materialized_at)
    const lags = await sql(
      (s) => s<{ ms: number }>`
      SELECT extract(epoch FROM (materialized_at - emitted_at)) * 1000 AS ms FROM events WHERE id LIKE 'ev_load_%' AND version > 1`
    )
    const lagMs = lags.map((l) => Number(l.ms))

    const line = (name: string, r: autocannon.Result) =>
      console.log(
        `${name.padEnd(22)} ${fmt(r.requests.average).padStart(7)} req/s  p50 ${String(r.latency.p50).padStart(4)} ms  p99 ${String(r.latency.p99).padStart(5)} ms  statuses ${JSON.stringify(statusCounts(r))}, errors ${errorsOf(r)}`
      )
    const floorLine = (name: string, f: Awaited<ReturnType<typeof driveFloor>>, api: number) =>
      console.log(
        `${name.padEnd(22)} ${fmt(f.rps).padStart(7)} req/s  p50 ${f.p50.toFixed(0).padStart(4)} ms  p99 ${f.p99.toFixed(0).padStart(5)} ms  (statement errors ${f.errors}); API ${(api / f.rps).toFixed(2)}x its throughput`
      )
    console.log("")
    line("API polling mix", polling)
    console.log(
      `  its tail             client p99 ${polling.latency.p99} ms; inside the API's app p99 ${inApp.p99Le === null ? "–" : `≤ ${inApp.p99Le * 1000} ms`} (${(inApp.over250 * 100).toFixed(2)} % of ${fmt(inApp.count)} answers took over 250 ms there); the bench's own event-loop delay p99 ${clientLoopP99Ms.toFixed(0)} ms; the rest is waiting outside the app (sockets, the workers' event loops, the client)`
    )
    floorLine("  SQL floor, same mix", pollingFloor, polling.requests.average)
    line("API distinct mix", distinct)
    floorLine("  SQL floor, same mix", distinctFloor, distinct.requests.average)
    // where the machine's time went, per answered request: what the API adds beside what Postgres does
    const perReq = (c: Record<string, number>, n: number) =>
      Object.entries(c)
        .map(([k, v]) => `${k} ${((v * 1000) / Math.max(1, n)).toFixed(2)}`)
        .join(", ")
    console.log(
      `CPU ms per request    distinct mix via API: ${perReq(cpu.distinct, distinct.requests.total)}; via SQL floor: ${perReq(cpu.distinctFloor, distinctFloor.requests)}`
    )
    console.log(
      `                      (each started with the ingest caught up: waited ${waits.map((w) => `${w.toFixed(1)} s`).join(" and ")})`
    )
    console.log(
      `fresh through cache    ${fresh.length} probes: change queryable → seen p50 ${pct(fresh, 50)?.toFixed(0)} ms, p99 ${pct(fresh, 99)?.toFixed(0)} ms, max ${Math.max(...fresh).toFixed(0)} ms`
    )
    console.log(
      `ingest lag             ${fmt(sent)} updates offered at ${fmt(RATE)}/s, each event's last one (offered in the last 20 s: the floors' phases): p50 ${pct(lagMs, 50).toFixed(0)} ms, p99 ${pct(lagMs, 99).toFixed(0)} ms`
    )
    const behindS = (name: string) => (pct(backlog.get(name) ?? [], 99) ?? 0) / RATE
    console.log(
      `materializer behind    p99 by phase, in seconds of changes (every 250 ms): ${[...backlog.keys()].map((k) => `${k} ${behindS(k).toFixed(2)} s`).join(", ")}`
    )

    // the floor of HTTP itself: a bare Node server answering the same bytes, same connections
    const bare = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(sampleBody) })
      res.end(sampleBody)
    })
    await new Promise<void>((r) => bare.listen(0, "127.0.0.1", () => r()))
    const floor = await cannon({
      url: `http://127.0.0.1:${(bare.address() as { port: number }).port}/`,
      connections: CONNECTIONS,
      duration: Math.min(10, SECONDS)
    })
    bare.close()
    console.log(
      `bare Node HTTP         ${fmt(floor.requests.average).padStart(7)} req/s  p99 ${floor.latency.p99} ms (one process, same ${fmt(Buffer.byteLength(sampleBody))}-byte body); polling mix ${(polling.requests.average / floor.requests.average).toFixed(2)}x of it`
    )
    console.log(
      JSON.stringify({
        bench: "load",
        workers: WORKERS,
        connections: CONNECTIONS,
        seconds: SECONDS,
        ingest_rate: RATE,
        tracing: TRACING,
        ...(sink ? { spans_exported: sink.spans() } : {}),
        polling_rps: Math.round(polling.requests.average),
        polling_p50_ms: polling.latency.p50,
        polling_p99_ms: polling.latency.p99,
        polling_in_app_p99_le_ms: inApp.p99Le === null ? null : inApp.p99Le * 1000,
        polling_in_app_over_250_share: Number(inApp.over250.toFixed(4)),
        bench_loop_delay_p99_ms: Math.round(clientLoopP99Ms),
        polling_sql_floor_rps: Math.round(pollingFloor.rps),
        distinct_rps: Math.round(distinct.requests.average),
        distinct_p99_ms: distinct.latency.p99,
        distinct_sql_floor_rps: Math.round(distinctFloor.rps),
        distinct_floor_ratio: Number((distinct.requests.average / distinctFloor.rps).toFixed(2)),
        fresh_p50_ms: Math.round(pct(fresh, 50) ?? -1),
        fresh_p99_ms: Math.round(pct(fresh, 99) ?? -1),
        probes: fresh.length,
        lag_p99_ms: Math.round(pct(lagMs, 99)),
        behind_p99_s: {
          polling: behindS("polling"),
          distinct: behindS("API distinct"),
          distinct_floor: behindS("distinct floor"),
          polling_floor: behindS("polling floor")
        },
        errors: errorsOf(polling) + errorsOf(distinct),
        bare_http_rps: Math.round(floor.requests.average)
      })
    )
  } finally {
    sink?.close()
    await api?.stop()
    materializer.stop()
    await pool.end()
    await redis.quit()
    await rt.dispose()
    await world.drop()
  }
}

/** the in-process API that records the floors' statements reads the same database under a Redis prefix of its own */
const settingsOf = (world: ReturnType<typeof scratch>) => ({
  databaseUrl: Redacted.make(world.dbUrl),
  redisUrl: world.redisUrl,
  redisPrefix: `${world.prefix}:floor`
})

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
