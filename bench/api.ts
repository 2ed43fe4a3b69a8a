/**
 * npm run bench:api — loads 1,000,000 features across jurisdictions into a scratch database,
 * starts the API as its own process, and prints p50/p99 latency and requests/s for:
 * radius 50 km one type, radius 200 km group, bbox, cursor paging to depth 50,000, each beside
 * the same query issued directly in SQL (the database's own floor) and the API/SQL ratio.
 * Targets: p99 < 50 ms for radius/bbox at limit 100; API throughput ≥ 50 % of direct SQL.
 * BENCH_FEATURES, BENCH_REQUESTS and BENCH_CONCURRENCY change the load.
 */
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { createKey } from "../infra/admin/keys.js"
import { fmt, pct, run, startApi } from "./measure.js"
import { scratch } from "./scratch.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { cellRows, insertCells } from "../pipeline/stages/materialize/applyFeatureChanges.js"
import { listFeatures, type FeatureFilters } from "../api/queries/FeaturesQuery.js"
import { groupById } from "../shared/domain/FeatureGroups.js"
import { SqlClient } from "@effect/sql"

const N = Number(process.env.BENCH_FEATURES ?? 1_000_000)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
const TYPES = ["cameras", "weather_stations", "signs", "rest_areas", "truck_parking", "ev_charging", "bridge_clearances", "weight_restrictions", "weigh_stations", "truck_restrictions"]
const JURISDICTIONS = ["WA", "OR", "CA", "NV", "ID", "MT", "WY", "UT", "AZ", "CO", "NM", "TX", "OK", "KS", "NE", "SD", "ND", "MN", "IA", "MO", "IL", "WI", "MI", "IN", "OH", "KY", "TN", "GA", "FL", "NC", "VA", "PA", "NY", "ON", "QC", "BC", "AB"]

let seed = 7
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)

/** Points over the lower 48 and southern Canada, denser toward the east like real road networks. */
const point = () => ({ lat: 26 + rand() * 28, lng: -124 + Math.sqrt(rand()) * 56 })

const load = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const batch = 10_000
    const t0 = performance.now()
    for (let start = 0; start < N; start += batch) {
      const rows = []
      const cells = []
      for (let i = start; i < Math.min(N, start + batch); i++) {
        const p = point()
        const type = TYPES[i % TYPES.length]
        // one in fifty is a line (restrictions along a road), indexed by the cells it covers
        const line = type.endsWith("restrictions") && i % 50 === 7 ? { type: "LineString", coordinates: [[p.lng, p.lat], [p.lng + 0.05, p.lat + 0.05]] } : null
        const id = `ft_bench_${i}`
        rows.push({
          id, source_id: String(i), jurisdiction: JURISDICTIONS[i % JURISDICTIONS.length], feature_type: type, name: `${type} ${i}`,
          latitude: p.lat, longitude: p.lng, geometry: line, min_lat: p.lat, min_lng: p.lng,
          max_lat: line ? p.lat + 0.05 : p.lat, max_lng: line ? p.lng + 0.05 : p.lng, is_active: i % 20 !== 0,
          properties: { capacity: i % 97 }
        })
        cells.push(...cellRows({ id, feature_type: type, latitude: p.lat, longitude: p.lng, geometry: line }))
      }
      yield* sql`
        INSERT INTO features (id, source, source_id, jurisdiction, feature_type, name, description, latitude, longitude, geometry,
          min_lat, min_lng, max_lat, max_lng, is_active, properties, has_details, last_updated, created_at, version, content_hash,
          last_seen_at)
        SELECT id, 'bench', source_id, jurisdiction, feature_type, name, '', latitude, longitude, geometry, min_lat, min_lng,
          max_lat, max_lng, is_active, properties, false, now(), now(), 1, 'h', now()
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, source_id text, jurisdiction text, feature_type text,
          name text, latitude float8, longitude float8, geometry jsonb, min_lat float8, min_lng float8, max_lat float8, max_lng float8,
          is_active boolean, properties jsonb)`
      yield* insertCells(cells)
      if ((start / batch) % 10 === 9) process.stdout.write(`  loaded ${fmt(start + batch)} features\n`)
    }
    // the steady state autovacuum reaches in production: statistics and a set visibility map
    yield* sql`VACUUM ANALYZE features`
    yield* sql`VACUUM ANALYZE feature_cells`
    return (performance.now() - t0) / 1000
  })

/** One request of a scenario: the API path and the same query's filters for direct SQL. */
interface Scenario {
  readonly name: string
  readonly make: () => { readonly path: string; readonly filters: FeatureFilters }
}

const trucking = groupById.get("trucking")!.feature_types

const scenarios: ReadonlyArray<Scenario> = [
  {
    name: "radius 50 km, one type",
    make: () => {
      const p = point()
      return { path: `/features?type=cameras&lat=${p.lat}&lng=${p.lng}&radius_km=50&limit=100`, filters: { types: ["cameras"], circle: { lat: p.lat, lng: p.lng, radiusKm: 50 } } }
    }
  },
  {
    name: "radius 200 km, group trucking",
    make: () => {
      const p = point()
      return { path: `/features?group=trucking&lat=${p.lat}&lng=${p.lng}&radius_km=200&limit=100`, filters: { types: trucking, circle: { lat: p.lat, lng: p.lng, radiusKm: 200 } } }
    }
  },
  {
    name: "bbox 1°×1°, one type",
    make: () => {
      const p = point()
      return { path: `/features?type=signs&bbox=${p.lng},${p.lat},${p.lng + 1},${p.lat + 1}&limit=100`, filters: { types: ["signs"], bbox: { minLng: p.lng, minLat: p.lat, maxLng: p.lng + 1, maxLat: p.lat + 1 } } }
    }
  }
]

const main = async () => {
  const world = scratch("api")
  const { dbName, prefix, config } = world
  const dbUrl = new URL(world.dbUrl)
  const rt = ManagedRuntime.make(baseLayer(config, seedReferenceData).pipe(Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning))))
  let api: Awaited<ReturnType<typeof startApi>> | undefined
  try {
    console.log(`API benchmark: ${fmt(N)} features, ${REQUESTS} requests per scenario, ${CONCURRENCY} at a time`)
    const secs = await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, load))
    console.log(`loaded ${fmt(N)} features in ${secs.toFixed(0)} s`)
    const { key } = await rt.runPromise(createKey({ plan: "enterprise", email: "bench@example.com" }))
    api = await startApi(dbUrl.toString(), prefix)
    const base = api.base
    const get = async (path: string) => {
      const r = await fetch(`${base}${path}`, { headers: { "X-API-Key": key } })
      if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${await r.text()}`)
      return (await r.json()) as { data: Array<unknown>; next_cursor?: string; has_more: boolean }
    }
    // warm both paths (plans, reference data, Postgres buffers)
    for (const s of scenarios) for (let i = 0; i < 20; i++) await get(s.make().path)
    const direct = (f: FeatureFilters) => rt.runPromise(listFeatures(f, { limit: 100, offset: 0 }))
    console.log(`\n${"scenario".padEnd(32)} ${"API p50/p99 ms".padStart(16)} ${"API req/s".padStart(10)} ${"SQL p50/p99 ms".padStart(16)} ${"SQL req/s".padStart(10)} ${"API/SQL".padStart(8)}`)
    for (const s of scenarios) {
      const a = await run(REQUESTS, CONCURRENCY, async () => { await get(s.make().path) })
      const d = await run(REQUESTS, CONCURRENCY, async () => { await direct(s.make().filters) })
      console.log(`${s.name.padEnd(32)} ${`${a.p50.toFixed(1)} / ${a.p99.toFixed(1)}`.padStart(16)} ${fmt(a.rps).padStart(10)} ${`${d.p50.toFixed(1)} / ${d.p99.toFixed(1)}`.padStart(16)} ${fmt(d.rps).padStart(10)} ${`${Math.round((a.rps / d.rps) * 100)} %`.padStart(8)}`)
    }
    // cursor paging: every page's latency, to depth 50,000 (limit 1,000)
    const pages: Array<number> = []
    let cursor: string | undefined
    let rows = 0
    while (rows < 50_000) {
      const s = performance.now()
      const page = await get(`/features?type=weather_stations&limit=1000${cursor ? `&cursor=${cursor}` : ""}`)
      pages.push(performance.now() - s)
      rows += page.data.length
      if (!page.next_cursor) break
      cursor = page.next_cursor
    }
    const first = pages.slice(0, 5)
    const last = pages.slice(-5)
    const avg = (xs: Array<number>) => xs.reduce((x, y) => x + y, 0) / xs.length
    console.log(`\ncursor paging to depth ${fmt(rows)} (limit 1,000): p50 ${pct(pages, 50).toFixed(1)} ms, p99 ${pct(pages, 99).toFixed(1)} ms; first 5 pages avg ${avg(first).toFixed(1)} ms, last 5 avg ${avg(last).toFixed(1)} ms (flat cost = last ≈ first)`)
  } finally {
    api?.stop()
    await rt.dispose()
    // BENCH_KEEP=1 keeps the loaded database for a look at query plans
    if (process.env.BENCH_KEEP === "1") console.log(`kept database ${dbName}`)
    else await world.drop()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
