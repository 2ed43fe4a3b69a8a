/**
 * npm run bench:memory — peak resident memory (VmHWM) of real processes on large inputs:
 *  1. a pipeline process (`infra/processes/pipeline.ts`) polling one WZDx feed of 200,000 records
 *     from a loopback server, until every change is materialized;
 *  2. a materializer process (`infra/processes/materializer.ts`) draining a backlog of 1,000,000
 *     changes already on the stream;
 *  3. stream trimming with a second group behind: nothing it still needs is dropped.
 * Each figure is printed beside its floor, measured in this process: this process with the
 * service's modules loaded (what any process of the service starts from), and
 * JSON.parse of the same feed (what any reader of that payload holds at once), and beside the
 * bound stated below. Uses DATABASE_URL's server (a scratch database, dropped) and REDIS_URL.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { createClient } from "redis"
import { Redacted } from "effect"
import { RedisStreams } from "../shared/bus/RedisStreams.js"
import { AppConfig } from "../shared/config/AppConfig.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { benchChild, fmt } from "./measure.js"
import { rssOf } from "./proc.js"
import { scratch } from "./scratch.js"

const FEED = Number(process.env.BENCH_FEED_RECORDS ?? 200_000)
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 1_000_000)
/** the bounds this bench holds the processes to (MB of peak RSS) */
const PIPELINE_BOUND_MB = 1024
const MATERIALIZER_BOUND_MB = 400

const root = fileURLToPath(new URL("..", import.meta.url))
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)

const feature = (i: number) =>
  `{"id":"m-${i}","type":"Feature","properties":{"core_details":{"event_type":"work-zone","road_names":["I-${(i % 90) + 1}"],"direction":"eastbound","description":"Work zone ${i}"},"start_date":"2026-11-01T06:00:00Z","vehicle_impact":"some-lanes-closed"},"geometry":{"type":"Point","coordinates":[${(-120 + (i % 500) / 20).toFixed(4)},${(30 + Math.floor(i / 500) / 40).toFixed(4)}]}}`

const change = (i: number, at: string) =>
  JSON.stringify({
    change_id: `ev_mem_${i}:1`,
    kind: "event",
    op: "created",
    event_id: `ev_mem_${i}`,
    source: "mem",
    source_id: `m${i}`,
    version: 1,
    at,
    emitted_at: at,
    content_hash: "h",
    keys: {
      jurisdiction: "IA",
      type: "construction",
      sub_type: null,
      cause: "roadwork",
      severity: "minor",
      road_name: "I-35"
    },
    fields: [{ change_type: "created", old_value: null, new_value: "minor" }],
    event: {
      source_id: `m${i}`,
      jurisdiction: "IA",
      type: "construction",
      sub_type: null,
      cause: "roadwork",
      severity: "minor",
      status: "active",
      title: `Work zone ${i}`,
      description: "",
      latitude: 30 + (i % 1000) / 100,
      longitude: -120 + Math.floor(i / 1000) / 50,
      geometry: null,
      affected_roads: ["I-35"],
      direction: "northbound",
      lanes_affected: null,
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

const startProcess = (script: string, env: Record<string, string>) => {
  const flags = benchChild()
  const child = spawn(process.execPath, [...flags.args, "--import", "tsx", script], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn", ...env },
    stdio: ["ignore", flags.stdout, "inherit"]
  })
  let peak = 0
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!).peak)), 100)
  const stop = () =>
    new Promise<number>((resolve) => {
      peak = Math.max(peak, rssOf(child.pid!).peak)
      clearInterval(sampler)
      child.once("exit", () => resolve(peak))
      child.kill("SIGTERM")
    })
  return { child, stop }
}

const count = async (dbUrl: string) => {
  const c = new pg.Client({ connectionString: dbUrl })
  await c.connect()
  const r = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM events")
  await c.end()
  return r.rows[0].n
}

/** Waits for `check`, printing the process's RSS and the materialized rows every 10 s meanwhile. */
const waitFor = async (check: () => Promise<number | true>, label: string, pid: number, timeoutMs = 600_000) => {
  const t0 = performance.now()
  let lastPrint = 0
  while (true) {
    const r = await check()
    if (r === true) break
    const t = performance.now() - t0
    if (t > timeoutMs) throw new Error(`timed out waiting for ${label}`)
    if (t - lastPrint >= 10_000) {
      lastPrint = t
      const { now, peak } = rssOf(pid)
      console.log(
        `  ${(t / 1000).toFixed(0).padStart(4)} s  RSS ${mb(now)} MB (peak so far ${mb(peak)} MB), ${fmt(r)} rows`
      )
    }
    await new Promise((res) => setTimeout(res, 250))
  }
  return (performance.now() - t0) / 1000
}

const main = async () => {
  console.log(`memory benchmark on ${process.arch}, node ${process.version}`)
  const bare = rssOf(process.pid).now
  const world = scratch("memory")
  // migrate the scratch database once, from this process
  const rt = ManagedRuntime.make(
    RedisStreams.layer.pipe(Layer.provideMerge(baseLayer(world.config, seedReferenceData)))
  )
  await rt.runPromise(Effect.void)
  const redis = createClient({ url: world.redisUrl })
  await redis.connect()
  const feedText = `{"type":"FeatureCollection","feed_info":{"version":"4.2"},"features":[${Array.from({ length: FEED }, (_, i) => feature(i)).join(",")}]}`
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/geo+json", "content-length": Buffer.byteLength(feedText) })
    res.end(feedText)
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const port = (server.address() as { port: number }).port
  try {
    // the floor: what holding this payload parsed costs
    const before = process.memoryUsage().heapUsed
    const parsed = JSON.parse(feedText) as { features: Array<unknown> }
    const parsedBytes = process.memoryUsage().heapUsed - before
    console.log(
      `feed: ${fmt(parsed.features.length)} records, ${mb(Buffer.byteLength(feedText))} MB of JSON; parsed it holds ${mb(parsedBytes)} MB of heap; this process with the service's modules loaded: ${mb(bare)} MB RSS`
    )

    // 1. a pipeline process polling the feed once
    const sources = join(tmpdir(), `rd-bench-memory-${process.pid}.json`)
    writeFileSync(
      sources,
      JSON.stringify([
        {
          id: "mem-wzdx",
          adapter: "wzdx",
          url: `http://127.0.0.1:${port}/feed`,
          jurisdiction: "WZDX_IA",
          poll_interval_s: 3600,
          timeout_ms: 120_000
        }
      ])
    )
    const pipeline = startProcess("infra/processes/pipeline.ts", {
      DATABASE_URL: world.dbUrl,
      REDIS_URL: world.redisUrl,
      REDIS_PREFIX: world.prefix,
      SOURCES_FILE: sources
    })
    const secs = await waitFor(
      async () => {
        const n = await count(world.dbUrl)
        return n >= FEED || n
      },
      "the feed to be materialized",
      pipeline.child.pid!
    )
    const pipelinePeak = await pipeline.stop()
    console.log(
      `pipeline process    peak RSS ${mb(pipelinePeak)} MB polling ${fmt(FEED)} records to materialized rows in ${secs.toFixed(1)} s (bound ${PIPELINE_BOUND_MB} MB: ${mb(pipelinePeak) <= PIPELINE_BOUND_MB ? "within" : "OVER"})`
    )

    // 2. a materializer draining a backlog of changes, on a stream of its own
    const prefix2 = `${world.prefix}:backlog`
    const stream = `${prefix2}:changes`
    await redis.xGroupCreate(stream, "materialize", "0", { MKSTREAM: true })
    await redis.xGroupCreate(stream, "laggard", "0")
    const at = "2026-11-01T00:00:00.000Z"
    const t0 = performance.now()
    let middleId = ""
    for (let off = 0; off < BACKLOG; off += 5000) {
      const m = redis.multi()
      for (let i = off; i < Math.min(BACKLOG, off + 5000); i++) m.xAdd(stream, "*", { c: change(i, at) })
      const ids = (await m.exec()) as unknown as Array<string>
      const mid = Math.floor(BACKLOG / 2)
      if (mid >= off && mid < off + 5000) middleId = ids[mid - off]
    }
    const info = await redis.info("memory")
    const used = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0)
    console.log(
      `backlog: ${fmt(BACKLOG)} changes on the stream in ${((performance.now() - t0) / 1000).toFixed(1)} s (Redis holds ${mb(used)} MB)`
    )
    const before2 = await count(world.dbUrl)
    const materializer = startProcess("infra/processes/materializer.ts", {
      DATABASE_URL: world.dbUrl,
      REDIS_URL: world.redisUrl,
      REDIS_PREFIX: prefix2
    })
    const secs2 = await waitFor(
      async () => {
        const n = (await count(world.dbUrl)) - before2
        return n >= BACKLOG || n
      },
      "the backlog to be materialized",
      materializer.child.pid!
    )
    const materializerPeak = await materializer.stop()
    console.log(
      `materializer        peak RSS ${mb(materializerPeak)} MB draining ${fmt(BACKLOG)} changes in ${secs2.toFixed(1)} s, ${fmt(BACKLOG / secs2)} changes/s (bound ${MATERIALIZER_BOUND_MB} MB: ${mb(materializerPeak) <= MATERIALIZER_BOUND_MB ? "within" : "OVER"})`
    )

    // 3. trimming through the service every pipeline uses: the laggard group has read nothing, so
    // nothing may go; once it has read up to the middle, exactly what lies before that goes
    const config2 = AppConfig.make({
      databaseUrl: Redacted.make(world.dbUrl),
      redisUrl: world.redisUrl,
      redisPrefix: prefix2
    })
    const rt2 = ManagedRuntime.make(RedisStreams.layer.pipe(Layer.provideMerge(baseLayer(config2, seedReferenceData))))
    try {
      const trimmedAtZero = await rt2.runPromise(Effect.flatMap(RedisStreams, (s) => s.trimProcessed))
      await redis.sendCommand(["XGROUP", "SETID", stream, "laggard", middleId])
      const trimmedAtMiddle = await rt2.runPromise(Effect.flatMap(RedisStreams, (s) => s.trimProcessed))
      const first = await redis.xRange(stream, "-", "+", { COUNT: 1 })
      const left = await redis.xLen(stream)
      console.log(
        `trimming            with a group that read nothing: ${fmt(trimmedAtZero)} removed; with it halfway: ${fmt(trimmedAtMiddle)} removed, ${fmt(left)} kept, the oldest kept ${first[0]?.id === middleId ? "is" : "IS NOT"} the one it reads next from`
      )
      console.log(
        JSON.stringify({
          bench: "memory",
          feed_records: FEED,
          pipeline_peak_mb: mb(pipelinePeak),
          pipeline_bound_mb: PIPELINE_BOUND_MB,
          backlog_changes: BACKLOG,
          materializer_peak_mb: mb(materializerPeak),
          materializer_bound_mb: MATERIALIZER_BOUND_MB,
          materializer_changes_per_s: Math.round(BACKLOG / secs2),
          bare_process_mb: mb(bare),
          trimmed_at_zero: trimmedAtZero,
          trimmed_at_middle: trimmedAtMiddle
        })
      )
    } finally {
      await rt2.dispose()
    }
  } finally {
    server.close()
    await redis.quit()
    await rt.dispose()
    await world.drop()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
