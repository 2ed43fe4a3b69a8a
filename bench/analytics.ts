/**
 * npm run bench:analytics — loads 200,000 events with 1,000,000 history rows across 60
 * jurisdictions over 365 days (raw tables `events`/`event_history` in SQL; the analytics tables
 * through the analytics stage's own apply, with 600 weather stations), starts the API as its own
 * process, then prints p50/p99 and req/s of each analytics endpoint at default parameters over a
 * 30-day and a 365-day window, beside the same aggregate issued directly in SQL on the raw tables.
 * Last, the stage's lag at 1,000 changes/s offered for 10 s.
 * Targets on a 2-core machine: p99 < 200 ms (30 days) and < 1 s (365 days) on every endpoint;
 * lag p99 < 1 s at 1,000 changes/s.
 * BENCH_EVENTS, BENCH_REQUESTS, BENCH_CONCURRENCY, BENCH_RATE and BENCH_LAG_SECONDS change the load.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Fiber, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { latLngToCell } from "h3-js"
import { createKey } from "../infra/admin/keys.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { PipelineServices } from "../pipeline/PipelineLive.js"
import { applyAnalytics } from "../pipeline/stages/analytics/applyAnalytics.js"
import { ANALYTICS_GROUP } from "../pipeline/stages/analytics/AnalyticsStage.js"
import { runConsumer } from "../pipeline/stages/ConsumerLoop.js"
import { RedisStreams } from "../shared/bus/RedisStreams.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { Redis } from "../shared/db/Redis.js"
import type { Change, EventChange, FeatureChange } from "../shared/domain/Change.js"
import type { EventObservation, EventType, Severity } from "../shared/domain/Event.js"
import { fmt, pct, run, startApi } from "./measure.js"
import { scratch } from "./scratch.js"
import { seededRandom } from "./random.js"

const N = Number(process.env.BENCH_EVENTS ?? 200_000)
const HISTORY_PER_EVENT = 5
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2)
const RATE = Number(process.env.BENCH_RATE ?? 1000)
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 10)
const DAY = 86_400_000
const SETTINGS = { maxKm: 50, lateS: 900 }

const JURISDICTIONS = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
  "AB",
  "BC",
  "MB",
  "NB",
  "NL",
  "NS",
  "ON",
  "PE",
  "QC",
  "SK"
]
const TYPES: ReadonlyArray<EventType> = [
  "incident",
  "incident",
  "incident",
  "incident",
  "construction",
  "construction",
  "closure",
  "weather",
  "special_event",
  "advisory",
  "restriction"
]
const SEVERITIES: ReadonlyArray<Severity> = ["minor", "minor", "moderate", "major", "critical"]

const rand = seededRandom(11)
const iso = (ms: number) => new Date(ms).toISOString()
const dec = (h: string) => BigInt("0x" + h).toString()

/** Each jurisdiction a 3°×3° patch of its own; events cluster toward its middle. */
const centre = (j: number) => ({ lat: 27 + (j % 10) * 2.6, lng: -122 + Math.floor(j / 10) * 9 })
const around = (j: number, spread: number) => {
  const c = centre(j)
  return { lat: c.lat + (rand() - 0.5) * spread * rand(), lng: c.lng + (rand() - 0.5) * spread * rand() }
}

interface Generated {
  readonly id: string
  readonly o: EventObservation
  readonly createdMs: number
  readonly archive?: { readonly ms: number; readonly reason: "observed" | "stale_sweep" }
}

const generate = (now: number): Array<Generated> =>
  Array.from({ length: N }, (_, i) => {
    const j = i % JURISDICTIONS.length
    const p = around(j, 3)
    const createdMs = now - Math.floor(rand() * 365 * DAY)
    const start = rand() < 0.9 ? createdMs - Math.floor(rand() * 30 * 60_000) : null
    const o: EventObservation = {
      source_id: String(i),
      jurisdiction: JURISDICTIONS[j],
      type: TYPES[i % TYPES.length],
      sub_type: null,
      cause: null,
      severity: SEVERITIES[Math.floor(rand() * SEVERITIES.length)],
      status: "active",
      title: `event ${i}`,
      description: "",
      latitude: p.lat,
      longitude: p.lng,
      geometry: null,
      affected_roads: i % 5 === 0 ? [`I-${(i % 45) + 5}`, `US-${(i % 30) + 1}`] : [`I-${(i % 45) + 5}`],
      direction: null,
      lanes_affected: null,
      start_time: start === null ? null : iso(start),
      end_time: null,
      estimated_start_time: null,
      estimated_end_time: null,
      source_created_at: null,
      source_updated_at: null,
      road_class: null,
      metadata: {}
    }
    // minutes to clear: mostly under two hours, a long tail to days
    const minutes = Math.exp(2 + rand() * 4 + (rand() < 0.05 ? 3 : 0))
    const archiveMs = (start ?? createdMs) + minutes * 60_000
    const archived = rand() < 0.9 && archiveMs < now
    return {
      id: `ev_bench_${i}`,
      o,
      createdMs,
      ...(archived
        ? { archive: { ms: archiveMs, reason: rand() < 0.85 ? ("observed" as const) : ("stale_sweep" as const) } }
        : {})
    }
  })

/** The raw read model the materializer keeps: events and their history (5 rows each). */
const loadRaw = (sql: SqlClient.SqlClient, events: ReadonlyArray<Generated>, now: number) =>
  Effect.gen(function* () {
    for (let off = 0; off < events.length; off += 5000) {
      const slice = events.slice(off, off + 5000)
      const rows = slice.map((e) => ({
        id: e.id,
        source_id: e.o.source_id,
        jurisdiction: e.o.jurisdiction,
        type: e.o.type,
        severity: e.o.severity,
        status: e.archive ? "archived" : "active",
        latitude: e.o.latitude,
        longitude: e.o.longitude,
        affected_roads: e.o.affected_roads,
        start_time: e.o.start_time,
        created_at: iso(e.createdMs),
        archived_at: e.archive ? iso(e.archive.ms) : null,
        archive_reason: e.archive?.reason ?? null,
        h3_r3: dec(latLngToCell(e.o.latitude, e.o.longitude, 3)),
        h3_r5: dec(latLngToCell(e.o.latitude, e.o.longitude, 5)),
        h3_r7: dec(latLngToCell(e.o.latitude, e.o.longitude, 7))
      }))
      yield* sql`
        INSERT INTO events (id, source, source_id, jurisdiction, type, severity, status, title, latitude, longitude, affected_roads,
          start_time, last_updated, created_at, archived_at, archive_reason, version, content_hash, last_seen_at, h3_r3, h3_r5, h3_r7)
        SELECT id, 'bench', source_id, jurisdiction, type, severity, status, 'event ' || source_id, latitude, longitude, affected_roads,
          start_time, created_at, created_at, archived_at, archive_reason, 1, 'h', created_at, h3_r3, h3_r5, h3_r7
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, source_id text, jurisdiction text, type text, severity text,
          status text, latitude float8, longitude float8, affected_roads text[], start_time timestamptz, created_at timestamptz,
          archived_at timestamptz, archive_reason text, h3_r3 int8, h3_r5 int8, h3_r7 int8)`
      if ((off / 5000) % 10 === 9) process.stdout.write(`  raw events: ${fmt(off + 5000)}\n`)
    }
    // history rows in the order the materializer writes them: by the time they happened
    const history = events
      .flatMap((e) => {
        const end = e.archive?.ms ?? Math.min(now, e.createdMs + DAY)
        const mid = ["severity_change", "lanes_change", "end_time_change", "lanes_change"]
        const rows = [{ change_id: `${e.id}:1`, event_id: e.id, change_type: "created", changed_at: iso(e.createdMs) }]
        for (let k = 0; k < HISTORY_PER_EVENT - (e.archive ? 2 : 1); k++) {
          rows.push({
            change_id: `${e.id}:${k + 2}`,
            event_id: e.id,
            change_type: mid[k],
            changed_at: iso(e.createdMs + ((end - e.createdMs) * (k + 1)) / 5)
          })
        }
        if (e.archive)
          rows.push({
            change_id: `${e.id}:${HISTORY_PER_EVENT}`,
            event_id: e.id,
            change_type: "archived",
            changed_at: iso(e.archive.ms)
          })
        return rows
      })
      .sort((a, b) => a.changed_at.localeCompare(b.changed_at))
    for (let off = 0; off < history.length; off += 20_000) {
      yield* sql`
        INSERT INTO event_history (change_id, event_id, change_type, changed_at)
        SELECT change_id, event_id, change_type, changed_at
        FROM jsonb_to_recordset(${JSON.stringify(history.slice(off, off + 20_000))}::jsonb) AS x(change_id text, event_id text, change_type text, changed_at timestamptz)
        ORDER BY changed_at`
    }
  })

const stationChanges = (now: number): Array<FeatureChange> =>
  Array.from({ length: JURISDICTIONS.length * 10 }, (_, i) => {
    const j = i % JURISDICTIONS.length
    const p = around(j, 3)
    return {
      kind: "feature",
      op: "created",
      change_id: `wx${i}:1`,
      feature_id: `ft_wx_${i}`,
      source: "bench-wx",
      source_id: String(i),
      version: 1,
      at: iso(now - 366 * DAY),
      emitted_at: iso(now - 366 * DAY),
      content_hash: "h",
      keys: { jurisdiction: JURISDICTIONS[j], feature_type: "weather_stations" },
      fields: [{ change_type: "created", old_value: null, new_value: null }],
      feature: {
        source_id: String(i),
        jurisdiction: JURISDICTIONS[j],
        feature_type: "weather_stations",
        name: `Station ${i}`,
        description: "",
        latitude: p.lat,
        longitude: p.lng,
        geometry: null,
        road_name: null,
        direction: null,
        is_active: true,
        start_time: null,
        end_time: null,
        estimated_start_time: null,
        estimated_end_time: null,
        has_details: false,
        properties: {
          temperature: 20 + (i % 60),
          precipitation: ["none", "rain", "snow", "ice"][i % 4],
          road_surface: ["dry", "wet", "icy", "snow"][i % 4],
          humidity: 50 + (i % 50)
        }
      }
    }
  })

const eventChanges = (e: Generated): Array<EventChange> => {
  const keys = {
    jurisdiction: e.o.jurisdiction,
    type: e.o.type,
    sub_type: null,
    cause: null,
    severity: e.o.severity,
    road_name: e.o.affected_roads[0] ?? null
  }
  const head = {
    kind: "event" as const,
    event_id: e.id,
    source: "bench",
    source_id: e.o.source_id,
    content_hash: "h",
    keys
  }
  const out: Array<EventChange> = [
    {
      ...head,
      op: "created",
      change_id: `${e.id}:1`,
      version: 1,
      at: iso(e.createdMs),
      emitted_at: iso(e.createdMs),
      event: e.o,
      fields: [{ change_type: "created", old_value: null, new_value: e.o.severity }]
    }
  ]
  if (e.archive) {
    out.push({
      ...head,
      op: "archived",
      change_id: `${e.id}:2`,
      version: 2,
      at: iso(e.archive.ms),
      emitted_at: iso(e.archive.ms),
      archive_reason: e.archive.reason,
      fields: [{ change_type: "archived", old_value: "active", new_value: e.archive.reason }]
    })
  }
  return out
}

/** The same aggregates straight from the raw read model, as one would write them without the stage. */
const rawSql: Record<string, (sql: SqlClient.SqlClient, since: string) => Effect.Effect<unknown, unknown>> = {
  clearance: (sql, since) => sql`
    SELECT jurisdiction, type, count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY m), percentile_cont(0.95) WITHIN GROUP (ORDER BY m), avg(m)
    FROM (SELECT jurisdiction, type, extract(epoch FROM archived_at - coalesce(start_time, created_at)) / 60 AS m FROM events
          WHERE created_at >= ${since}::timestamptz AND archive_reason = 'observed') e
    WHERE m >= 0 GROUP BY 1, 2 ORDER BY 1, 2`,
  corridors: (sql, since) => sql`
    SELECT r.road, e.jurisdiction, count(*), avg(extract(epoch FROM e.archived_at - coalesce(e.start_time, e.created_at)) / 60) FILTER (WHERE e.archive_reason = 'observed'),
           count(*) FILTER (WHERE e.type = 'incident'), count(*) FILTER (WHERE e.type = 'construction')
    FROM events e CROSS JOIN LATERAL (SELECT DISTINCT unnest(e.affected_roads) AS road) r
    WHERE e.created_at >= ${since}::timestamptz GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 50`,
  trends: (sql, since) => sql`
    SELECT date_trunc('day', created_at AT TIME ZONE 'UTC'), type, count(*) FROM events WHERE created_at >= ${since}::timestamptz GROUP BY 1, 2`,
  hotspots: (sql, since) => sql`
    WITH c AS MATERIALIZED (SELECT h3_r5 AS cell, latitude, longitude, type FROM events WHERE created_at >= ${since}::timestamptz),
    k AS (SELECT cell, count(*) n, avg(latitude) lat, avg(longitude) lng FROM c GROUP BY cell HAVING count(*) >= 2 ORDER BY n DESC LIMIT 50)
    SELECT k.cell, k.n, max(geo_haversine_km(k.lat, k.lng, c.latitude, c.longitude)) FROM k JOIN c USING (cell) GROUP BY k.cell, k.n`,
  "weather-correlation": (sql, since) => sql`
    SELECT s.precipitation, s.road_surface, e.severity, count(*), avg(extract(epoch FROM e.archived_at - coalesce(e.start_time, e.created_at)) / 60) FILTER (WHERE e.archive_reason = 'observed')
    FROM events e JOIN event_weather_snapshots s ON s.event_id = e.id WHERE e.created_at >= ${since}::timestamptz GROUP BY 1, 2, 3`,
  changes: (sql, since) =>
    Effect.all([
      sql`SELECT h.*, e.jurisdiction, e.title FROM event_history h JOIN events e ON e.id = h.event_id WHERE h.changed_at >= ${since}::timestamptz ORDER BY h.id LIMIT 101`,
      sql`SELECT count(*) FROM event_history h JOIN events e ON e.id = h.event_id WHERE h.changed_at >= ${since}::timestamptz`
    ])
}

const main = async () => {
  const world = scratch("analytics")
  const rt = ManagedRuntime.make(
    PipelineServices.pipe(
      Layer.provideMerge(baseLayer(world.config, seedReferenceData)),
      Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning))
    )
  )
  let api: Awaited<ReturnType<typeof startApi>> | undefined
  try {
    const now = Date.now()
    console.log(
      `analytics benchmark on ${process.arch}, node ${process.version}: ${fmt(N)} events, ${fmt(N * HISTORY_PER_EVENT)} history rows, ${JURISDICTIONS.length} jurisdictions, 365 days`
    )
    const events = generate(now)
    const sql = await rt.runPromise(SqlClient.SqlClient)
    let t0 = performance.now()
    await rt.runPromise(loadRaw(sql, events, now))
    console.log(`raw tables loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s`)
    // the analytics tables through the stage's own apply, in stream order, batches of 1,000
    t0 = performance.now()
    const apply = applyAnalytics(SETTINGS)
    await rt.runPromise(apply(stationChanges(now)))
    const changes: Array<Change> = events.flatMap(eventChanges).sort((a, b) => a.at.localeCompare(b.at))
    for (let off = 0; off < changes.length; off += 1000) await rt.runPromise(apply(changes.slice(off, off + 1000)))
    const applySecs = (performance.now() - t0) / 1000
    console.log(
      `analytics stage applied ${fmt(changes.length)} changes in ${applySecs.toFixed(0)} s (${fmt(changes.length / applySecs)} changes/s without the stream)`
    )
    await rt.runPromise(
      Effect.all(
        ["events", "event_history", "analytics_events", "event_weather_snapshots", "weather_readings"].map((t) =>
          sql.unsafe(`VACUUM ANALYZE ${t}`)
        )
      )
    )
    const [{ snaps }] = await rt.runPromise(
      sql<{ snaps: number }>`SELECT count(*)::int AS snaps FROM event_weather_snapshots`
    )
    console.log(`${fmt(snaps)} events have a weather snapshot`)

    const { key } = await rt.runPromise(createKey({ plan: "enterprise", email: "bench@example.com" }))
    api = await startApi(world.dbUrl, world.prefix)
    const base = api.base
    const get = async (path: string) => {
      const r = await fetch(`${base}${path}`, { headers: { "X-API-Key": key } })
      if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${await r.text()}`)
      await r.arrayBuffer()
    }
    console.log(
      `\n${REQUESTS} requests per endpoint and window, ${CONCURRENCY} at a time; default parameters and since = now − window`
    )
    console.log(
      `${"endpoint".padEnd(28)} ${"window".padStart(6)} ${"API p50/p99 ms".padStart(16)} ${"API req/s".padStart(10)} ${"raw SQL p50/p99 ms".padStart(19)} ${"SQL req/s".padStart(10)} ${"API/SQL".padStart(8)}`
    )
    const line = (
      name: string,
      window: string,
      a: { p50: number; p99: number; rps: number },
      d?: { p50: number; p99: number; rps: number }
    ) =>
      console.log(
        `${name.padEnd(28)} ${window.padStart(6)} ${`${a.p50.toFixed(1)} / ${a.p99.toFixed(1)}`.padStart(16)} ${fmt(a.rps).padStart(10)} ${d ? `${d.p50.toFixed(1)} / ${d.p99.toFixed(1)}`.padStart(19) : "".padStart(19)} ${d ? fmt(d.rps).padStart(10) : "".padStart(10)} ${d ? `${(a.rps / d.rps).toFixed(2)}×`.padStart(8) : ""}`
      )
    for (const days of [30, 365]) {
      const since = iso(now - days * DAY + 60_000)
      for (const [name, raw] of Object.entries(rawSql)) {
        const path = `/analytics/${name}?since=${since}`
        for (let i = 0; i < 3; i++) await get(path)
        const a = await run(REQUESTS, CONCURRENCY, () => get(path))
        const d = await run(REQUESTS, CONCURRENCY, () => rt.runPromise(raw(sql, since)).then(() => undefined))
        line(name, `${days} d`, a, d)
      }
    }
    const someEvent = events.find((e) => e.archive)!.id
    for (const [name, path] of [
      ["weather (600 stations)", "/analytics/weather"],
      ["event-weather/{id}", `/analytics/event-weather/${someEvent}`],
      ["history/{id}", `/analytics/history/${someEvent}`]
    ]) {
      const a = await run(REQUESTS, CONCURRENCY, () =>
        get(path).catch((e) => (String(e).includes("404") ? undefined : Promise.reject(e)))
      )
      line(name, "—", a)
    }

    // the stage at a fixed offered rate: commit time minus emission time of every change
    await rt.runPromise(
      Effect.gen(function* () {
        const streams = yield* RedisStreams
        const redis = yield* Redis
        yield* streams.ensureGroup(ANALYTICS_GROUP)
        const lags: Array<number> = []
        const measured = (cs: ReadonlyArray<Change>) =>
          Effect.tap(apply(cs), () =>
            Effect.sync(() => {
              const t = Date.now()
              for (const c of cs) lags.push(t - Date.parse(c.emitted_at))
            })
          )
        const consumer = yield* Effect.fork(
          runConsumer(
            {
              group: ANALYTICS_GROUP,
              consumer: "bench",
              batchSize: 1000,
              blockMs: 50,
              claimIdleMs: 60_000,
              maxDeliveries: 5
            },
            measured
          )
        )
        const tick = 50
        const total = RATE * LAG_SECONDS
        const start = performance.now()
        let sent = 0
        while (sent < total) {
          const due = Math.min(
            total,
            Math.floor(((performance.now() - start) / 1000) * RATE) + Math.round((RATE * tick) / 1000)
          )
          if (due > sent) {
            const batch: Array<Change> = []
            for (let i = sent; i < due; i++) {
              const e = events[i % events.length]
              const at = iso(Date.now())
              // new events (with a weather lookup) and archives, in equal parts
              batch.push(
                i % 2 === 0
                  ? { ...eventChanges(e)[0], event_id: `ev_lag_${i}`, change_id: `ev_lag_${i}:1`, at, emitted_at: at }
                  : {
                      ...eventChanges({ ...e, archive: { ms: Date.now(), reason: "observed" } })[1],
                      event_id: `ev_lag_${i - 1}`,
                      change_id: `ev_lag_${i - 1}:2`,
                      at,
                      emitted_at: at
                    }
              )
            }
            yield* redis.use("xadd", async (c) => {
              const m = c.multi()
              for (const ch of batch) m.xAdd(streams.streamKey, "*", { c: JSON.stringify(ch) })
              await m.exec()
            })
            sent = due
          }
          yield* Effect.sleep(`${tick} millis`)
        }
        while (
          !(yield* Effect.map(streams.groups, (gs) =>
            gs.some((g) => g.group === ANALYTICS_GROUP && g.pending === 0 && g.lag === 0)
          ))
        )
          yield* Effect.sleep("20 millis")
        yield* Fiber.interrupt(consumer)
        console.log(
          `\nanalytics stage lag at ${fmt(RATE)} changes/s offered for ${LAG_SECONDS} s: p50 ${pct(lags, 50).toFixed(0)} ms, p99 ${pct(lags, 99).toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms over ${fmt(lags.length)} changes`
        )
        const keys = yield* redis.use("keys", (c) => c.keys(`${world.prefix}:*`))
        if (keys.length > 0) yield* redis.use("del", (c) => c.del(keys))
      })
    )
  } finally {
    await api?.stop()
    await rt.dispose()
    await world.finish(process.env.BENCH_KEEP === "1")
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
