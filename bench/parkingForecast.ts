/**
 * npm run bench:parking — the truck-parking forecaster as the service runs it.
 * In a scratch database: every site of the bundled TPIMS history as a feature, a day of readings
 * per site ending now (the history's last day, moved to today), and a model fitted by the
 * service's own refit child process. Prints:
 * - the refit: wall time of the child process and its peak memory;
 * - GET /features/{id}/forecast?hours=12 through the API process (BENCH_REQUESTS, 8 at a time):
 *   p50/p99 and req/s, beside its floor, the one SQL statement it runs (a site's last 24 hours of
 *   readings) at the same concurrency;
 * - the same endpoint while a refit runs beside it, and the event-loop delay p99 of this process
 *   (a stand-in for any service process) during a refit and at rest: the fit's arithmetic runs in
 *   its own process, so the loop does not wait; what is shared is the CPU.
 * Ends with one JSON line of figures. BENCH_KEEP=1 keeps the database.
 */
import { spawn } from "node:child_process"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import pg from "pg"
import { createKey } from "../infra/admin/keys.js"
import { BUNDLED_PARKING_HISTORY } from "../infra/parking/bundledHistory.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { readHistoryFile } from "../shared/parking/readings.js"
import { fmt, run, startApi } from "./measure.js"
import { scratch } from "./scratch.js"
import { seededRandom } from "./random.js"

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000)
const CONCURRENCY = 8
const DAY = 86_400_000

const main = async () => {
  const world = scratch("parking")
  const rt = ManagedRuntime.make(
    baseLayer(world.config, seedReferenceData).pipe(Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning)))
  )
  let stopApi: (() => Promise<void>) | undefined
  try {
    const history = await readHistoryFile(BUNDLED_PARKING_HISTORY)
    const newest = history.reduce((m, r) => Math.max(m, r.at), 0)
    const shift = Date.now() - newest
    const lastDay = history.filter((r) => r.at > newest - DAY && (r.available !== null || r.low))
    const sites = [...new Set(lastDay.map((r) => r.site))]
    const ids = await rt.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // the sites as the pipeline would hold them (Indiana publishes its lots as rest areas)
        const features = sites.map((site, i) => ({
          id: `ft_bench_${i}`,
          source_id: site.slice(site.indexOf(":") + 1),
          jurisdiction: site.slice(0, site.indexOf(":")),
          feature_type: site.startsWith("IN:") ? "rest_areas" : "truck_parking",
          name: `Lot ${site}`,
          latitude: 38 + (i % 10) * 0.3,
          longitude: -89 + Math.floor(i / 10) * 0.5
        }))
        yield* sql`
          INSERT INTO features (id, source, source_id, jurisdiction, feature_type, name, description, latitude, longitude,
            geometry, min_lat, min_lng, max_lat, max_lng, is_active, properties, has_details, last_updated, created_at,
            version, content_hash, last_seen_at)
          SELECT id, 'bench', source_id, jurisdiction, feature_type, name, '', latitude, longitude, NULL, latitude,
            longitude, latitude, longitude, true, '{}'::jsonb, false, now(), now(), 1, 'h', now()
          FROM jsonb_to_recordset(${JSON.stringify(features)}::jsonb) AS x(id text, source_id text, jurisdiction text,
            feature_type text, name text, latitude float8, longitude float8)`
        const rows = lastDay.map((r) => ({
          site: r.site,
          at: new Date(r.at + shift).toISOString(),
          available: r.available,
          low: r.low,
          capacity: r.capacity,
          trend: r.trend
        }))
        yield* sql`
          INSERT INTO parking_readings (site, at, available, low, capacity, trend)
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            AS x(site text, at timestamptz, available integer, low boolean, capacity integer, trend text)
          ON CONFLICT DO NOTHING`
        return features.map((f) => f.id)
      })
    )
    const key = (await rt.runPromise(createKey({ plan: "enterprise", email: "parking-bench@example.com" }))).key
    // the bench measures the answer, not the plan's rate limit
    await rt.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE api_keys SET rate_limit_rpm = 100000000`)
    )

    const refit = () =>
      new Promise<{ ms: number; rssMb: number; line: string }>((resolve, reject) => {
        // the child says its own peak memory in its result line
        const started = performance.now()
        const child = spawn(
          process.execPath,
          ["--import", "tsx", fileURLToPath(new URL("../infra/processes/parkingRefit.ts", import.meta.url))],
          {
            env: { ...process.env, DATABASE_URL: world.dbUrl, LOG_LEVEL: "warn" },
            stdio: ["ignore", "pipe", "inherit"]
          }
        )
        let out = ""
        child.stdout.on("data", (d: Buffer) => (out += d.toString()))
        child.on("close", (code) => {
          if (code !== 0) return reject(new Error(`refit exited ${code}`))
          const line = out.trim().split("\n").pop() ?? ""
          resolve({ ms: performance.now() - started, rssMb: Number(JSON.parse(line).peak_rss_mb), line })
        })
      })
    const first = await refit()
    const childRss = first.rssMb
    console.log(`refit: ${(first.ms / 1000).toFixed(1)} s, peak ${fmt(childRss)} MB: ${first.line}`)

    const api = await startApi(world.dbUrl, world.prefix)
    stopApi = api.stop
    const rand = seededRandom(5)
    const one = async () => {
      const id = ids[Math.floor(rand() * ids.length)]
      const r = await fetch(`${api.base}/features/${id}/forecast?hours=12`, { headers: { "X-API-Key": key } })
      if (r.status !== 200) throw new Error(`forecast answered ${r.status}: ${await r.text()}`)
      await r.arrayBuffer()
    }
    await run(200, CONCURRENCY, one)
    const endpoint = await run(REQUESTS, CONCURRENCY, one)

    const pool = new pg.Pool({ connectionString: world.dbUrl, max: CONCURRENCY })
    const since = () => new Date(Date.now() - DAY).toISOString()
    const floorOne = async () => {
      const site = sites[Math.floor(rand() * sites.length)]
      await pool.query(
        "SELECT site, at, available, low, capacity, trend FROM parking_readings WHERE at >= $1 AND site = $2 ORDER BY site, at",
        [since(), site]
      )
    }
    await run(200, CONCURRENCY, floorOne)
    const floor = await run(REQUESTS, CONCURRENCY, floorOne)
    await pool.end()

    // at rest, then with a refit beside it
    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()
    await new Promise((r) => setTimeout(r, 5_000))
    loop.disable()
    const restLoopP99 = loop.percentile(99) / 1e6
    const during = monitorEventLoopDelay({ resolution: 10 })
    during.enable()
    const refitting = refit()
    const underFit = await run(Math.min(REQUESTS, 1_000), CONCURRENCY, one)
    const second = await refitting
    during.disable()
    const fitLoopP99 = during.percentile(99) / 1e6

    console.log(
      `forecast endpoint: p50 ${endpoint.p50.toFixed(1)} ms, p99 ${endpoint.p99.toFixed(1)} ms, ${fmt(endpoint.rps)} req/s` +
        ` | floor (its SQL alone): p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms, ${fmt(floor.rps)} req/s`
    )
    console.log(
      `during a refit (${(second.ms / 1000).toFixed(1)} s): endpoint p99 ${underFit.p99.toFixed(1)} ms;` +
        ` event-loop delay p99 ${fitLoopP99.toFixed(1)} ms (at rest ${restLoopP99.toFixed(1)} ms)`
    )
    console.log(
      JSON.stringify({
        bench: "parking",
        sites: sites.length,
        readings: lastDay.length,
        refit_s: Math.round(first.ms / 100) / 10,
        refit_peak_rss_mb: childRss,
        forecast_p50_ms: Math.round(endpoint.p50 * 10) / 10,
        forecast_p99_ms: Math.round(endpoint.p99 * 10) / 10,
        forecast_rps: Math.round(endpoint.rps),
        floor_p99_ms: Math.round(floor.p99 * 10) / 10,
        floor_rps: Math.round(floor.rps),
        forecast_p99_during_refit_ms: Math.round(underFit.p99 * 10) / 10,
        loop_delay_p99_during_refit_ms: Math.round(fitLoopP99 * 10) / 10,
        loop_delay_p99_at_rest_ms: Math.round(restLoopP99 * 10) / 10
      })
    )
  } finally {
    await stopApi?.()
    await rt.dispose()
    await world.finish(process.env.BENCH_KEEP === "1")
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e))
  process.exit(1)
})
