/**
 * npm run bench:api — loads 1,000,000 features across jurisdictions into a scratch database,
 * starts the API role (API_WORKERS processes), and prints p50/p99 latency and requests/s for:
 * radius 50 km one type, radius 200 km group, bbox, cursor paging to depth 50,000. Beside each,
 * its SQL floor: the statements the handlers send for the same questions (captured at the
 * driver), issued straight to Postgres at the same concurrency through as many connections as
 * the workers hold; the API/SQL ratio is the figure that counts (target ≥ 0.7). Every question is
 * new, so no answer is shared; each scenario's questions are replayed once untimed first, so both
 * sides meet their pages equally warm. A third line, the bare handler (bareHandler.ts), is the
 * leanest Node server doing the same statements, and CPU per request by process says where the
 * machine's time went. Each scenario runs BENCH_ROUNDS (3) rounds, each of new questions asked of
 * the API and then of the floor straight after; every round is printed and the median round's
 * ratio is the figure (a single round lasts about two seconds on this machine, and its ratio moves
 * by ±0.1 with what else the machine is doing). Then the request path alone (a keyed answer from
 * memory) says how much of the API's CPU an answer is its request path and how much its handler.
 * Ends with one JSON line of figures.
 * Before its timed run each scenario is asked BENCH_WARM (3,000) other questions of its kind,
 * untimed: the API is measured as a server that has run a while, as the floor's client is.
 * BENCH_FEATURES, BENCH_REQUESTS, BENCH_CONCURRENCY and API_WORKERS change the load; BENCH_KEEP=1
 * keeps the database and BENCH_REUSE_DB=<name> measures a kept one without loading.
 */
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Redacted } from "effect"
import { availableParallelism } from "node:os"
import pg from "pg"
import { blocksRead, driveFloor, recordStatementSets, replayOnce, statementCounts } from "./sqlFloor.js"
import { createKey } from "../infra/admin/keys.js"
import autocannon from "autocannon"
import { fmt, pct, startApi } from "./measure.js"
import { driveBareHandler } from "./bareHandler.js"
import { cpuMeter } from "./cpu.js"
import { scratch } from "./scratch.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { cellRows, insertCells } from "../pipeline/stages/materialize/applyFeatureChanges.js"
import { SqlClient } from "@effect/sql"
import { seededRandom } from "./random.js"

const N = Number(process.env.BENCH_FEATURES ?? 1_000_000)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8)
/** rounds per scenario, each the API and then its SQL floor on new questions; the median round's ratio is the figure */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
/** untimed questions per scenario before its timed run (new ones, none of the timed): a server that has run a while */
const WARM = Number(process.env.BENCH_WARM ?? 3000)
const WORKERS = Number(process.env.API_WORKERS ?? availableParallelism())
const TYPES = [
  "cameras",
  "weather_stations",
  "signs",
  "rest_areas",
  "truck_parking",
  "ev_charging",
  "bridge_clearances",
  "weight_restrictions",
  "weigh_stations",
  "truck_restrictions"
]
const JURISDICTIONS = [
  "WA",
  "OR",
  "CA",
  "NV",
  "ID",
  "MT",
  "WY",
  "UT",
  "AZ",
  "CO",
  "NM",
  "TX",
  "OK",
  "KS",
  "NE",
  "SD",
  "ND",
  "MN",
  "IA",
  "MO",
  "IL",
  "WI",
  "MI",
  "IN",
  "OH",
  "KY",
  "TN",
  "GA",
  "FL",
  "NC",
  "VA",
  "PA",
  "NY",
  "ON",
  "QC",
  "BC",
  "AB"
]

const rand = seededRandom(7)

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
        const line =
          type.endsWith("restrictions") && i % 50 === 7
            ? {
                type: "LineString",
                coordinates: [
                  [p.lng, p.lat],
                  [p.lng + 0.05, p.lat + 0.05]
                ]
              }
            : null
        const id = `ft_bench_${i}`
        rows.push({
          id,
          source_id: String(i),
          jurisdiction: JURISDICTIONS[i % JURISDICTIONS.length],
          feature_type: type,
          name: `${type} ${i}`,
          latitude: p.lat,
          longitude: p.lng,
          geometry: line,
          min_lat: p.lat,
          min_lng: p.lng,
          max_lat: line ? p.lat + 0.05 : p.lat,
          max_lng: line ? p.lng + 0.05 : p.lng,
          is_active: i % 20 !== 0,
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

/**
 * A run of `amount` requests ends at autocannon's next sample, so its `duration` is rounded up to
 * the sample interval: at the default second, 400 answers in 1.1 s read as 200/s. Samples every
 * 10 ms keep the rounding under a hundredth of a second.
 */
const cannon = (opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ sampleInt: 10, ...opts }, (err, result) => (err ? reject(err) : resolve(result)))
  )

/** One request of a scenario: a question never asked before. */
interface Scenario {
  readonly name: string
  readonly key: string
  readonly make: () => { readonly path: string }
}

const scenarios: ReadonlyArray<Scenario> = [
  {
    name: "radius 50 km, one type",
    key: "radius50",
    make: () => {
      const p = point()
      return { path: `/features?type=cameras&lat=${p.lat}&lng=${p.lng}&radius_km=50&limit=100` }
    }
  },
  {
    name: "radius 200 km, group trucking",
    key: "group200",
    make: () => {
      const p = point()
      return { path: `/features?group=trucking&lat=${p.lat}&lng=${p.lng}&radius_km=200&limit=100` }
    }
  },
  {
    name: "bbox 1°×1°, one type",
    key: "bbox",
    make: () => {
      const p = point()
      return { path: `/features?type=signs&bbox=${p.lng},${p.lat},${p.lng + 1},${p.lat + 1}&limit=100` }
    }
  }
]

/**
 * What one side of a round cost: CPU seconds by role, requests answered, blocks read from outside Postgres's buffers.
 */
interface Spent {
  readonly cpu: Record<string, number>
  readonly requests: number
  readonly blocks: number
}

const totalRequests = (spent: ReadonlyArray<Spent>) =>
  Math.max(
    1,
    spent.reduce((n, x) => n + x.requests, 0)
  )

/** CPU ms per request by role over a side's rounds. */
const perRequest = (spent: ReadonlyArray<Spent>) =>
  Object.keys(spent[0].cpu)
    .filter((k) => k !== "materializer")
    .map((k) => `${k} ${((spent.reduce((t, x) => t + x.cpu[k], 0) * 1000) / totalRequests(spent)).toFixed(2)}`)
    .join(", ")

/** The API workers' CPU ms per answer over a side's rounds. */
const apiCpuMs = (spent: ReadonlyArray<Spent>) =>
  (spent.reduce((t, x) => t + x.cpu.api, 0) * 1000) / totalRequests(spent)

const blocksPerRequest = (spent: ReadonlyArray<Spent>) =>
  (spent.reduce((t, x) => t + x.blocks, 0) / totalRequests(spent)).toFixed(1)

const main = async () => {
  // BENCH_REUSE_DB=<name> measures a database kept by an earlier BENCH_KEEP=1 run, without loading
  const reuse = process.env.BENCH_REUSE_DB
  const world = scratch("api", {}, reuse)
  const { prefix, config } = world
  const dbUrl = new URL(world.dbUrl)
  const rt = ManagedRuntime.make(
    baseLayer(config, seedReferenceData).pipe(Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning)))
  )
  let api: Awaited<ReturnType<typeof startApi>> | undefined
  try {
    console.log(`API benchmark: ${fmt(N)} features, ${REQUESTS} requests per scenario, ${CONCURRENCY} at a time`)
    if (reuse) console.log(`reusing database ${reuse}`)
    else {
      const secs = await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, load))
      console.log(`loaded ${fmt(N)} features in ${secs.toFixed(0)} s`)
    }
    const { key } = await rt.runPromise(createKey({ plan: "enterprise", email: "bench@example.com" }))
    await rt.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE api_keys SET rate_limit_rpm = 100000000`)
    )
    // the floors' statements: each scenario's questions asked once through an API in this process
    const floorSets = new Map<string, Awaited<ReturnType<typeof recordStatementSets>>>()
    // the same questions go to the API later: both sides meet the same rows, equally warm
    const questions = new Map(
      scenarios.map((s) => [s.key, Array.from({ length: REQUESTS * ROUNDS }, () => s.make().path)])
    )
    for (const s of scenarios) {
      floorSets.set(
        s.key,
        await recordStatementSets(
          { databaseUrl: Redacted.make(dbUrl.toString()), redisUrl: world.redisUrl, redisPrefix: `${prefix}:floor` },
          key,
          questions.get(s.key)!
        )
      )
      const c = statementCounts(floorSets.get(s.key)!)
      console.log(`${s.name}: the handler sends ${c.perRequest.toFixed(1)} statements per request (${c.min}–${c.max})`)
    }
    // routing is not measured here: its network would load in every worker while the first scenario runs
    api = await startApi(dbUrl.toString(), prefix, { API_WORKERS: String(WORKERS), ROUTING_PRELOAD: "false" })
    const base = api.base
    const get = async (path: string) => {
      const r = await fetch(`${base}${path}`, { headers: { "X-API-Key": key } })
      if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${await r.text()}`)
      return (await r.json()) as { data: Array<unknown>; next_cursor?: string; has_more: boolean }
    }
    // warm both paths (plans, reference data, Postgres buffers)
    for (const s of scenarios) for (let i = 0; i < 20; i++) await get(s.make().path)
    /**
     * Each path asked once through the API, CONCURRENCY at a time (the same client as bench:load: lean, so the API's
     * side is not charged for fetch()).
     */
    const ask = async (paths: ReadonlyArray<string>, what: string) => {
      let next = 0
      const r = await cannon({
        url: new URL(base).origin,
        connections: CONCURRENCY,
        amount: paths.length,
        requests: [
          {
            method: "GET",
            headers: { "X-API-Key": key },
            setupRequest: (req) => ({ ...req, path: `${new URL(base).pathname}${paths[next++ % paths.length]}` })
          }
        ]
      })
      if (r.non2xx > 0 || r.errors > 0)
        throw new Error(`${what}: ${r.non2xx} answers other than 2xx, ${r.errors} errors`)
      return r
    }
    const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: WORKERS * 10 })
    console.log(
      `\n${WORKERS} API workers, ${ROUNDS} rounds of ${REQUESTS} new questions per scenario (* the median round, which the JSON line carries)\n${"scenario".padEnd(40)} ${"API p50/p99 ms".padStart(16)} ${"API req/s".padStart(10)} ${"SQL p50/p99 ms".padStart(16)} ${"SQL req/s".padStart(10)} ${"API/SQL".padStart(8)} ${"bare req/s".padStart(9)} ${"bare/SQL".padStart(9)}`
    )
    const figures: Record<string, number> = {}
    const cpuLines: Array<string> = []
    for (const s of scenarios) {
      // The floor replays recorded statements in a warm client; the API side is measured as a server
      // that has run a while: compiled by the JIT, its per-process cell facts filled. Each scenario is
      // first asked WARM other questions of its kind, untimed.
      if (WARM > 0)
        await ask(
          Array.from({ length: WARM }, () => s.make().path),
          `${s.name} warm-up`
        )
      const rounds: Array<{
        api: autocannon.Result
        apiRps: number
        floor: Awaited<ReturnType<typeof driveFloor>>
        bare: Awaited<ReturnType<typeof driveBareHandler>>
      }> = []
      /** each side's rounds: CPU by role, requests answered, blocks read from outside Postgres's buffers */
      const sides = { api: [] as Array<Spent>, floor: [] as Array<Spent>, bare: [] as Array<Spent> }
      for (let r = 0; r < ROUNDS; r++) {
        // each round its own new questions, asked of the API and then of the floor straight after:
        // a round's two sides meet the same hour of this machine, and its pages equally warm
        const paths = questions.get(s.key)!.slice(r * REQUESTS, (r + 1) * REQUESTS)
        const sets = floorSets.get(s.key)!.slice(r * REQUESTS, (r + 1) * REQUESTS)
        await replayOnce(pool, sets, CONCURRENCY)
        const t0 = performance.now()
        const readBefore = await blocksRead(pool)
        let meter = cpuMeter()
        const a = await ask(paths, s.name)
        const apiCpu = meter()
        const readMid = await blocksRead(pool)
        sides.api.push({ cpu: apiCpu, requests: a.requests.total, blocks: readMid - readBefore })
        meter = cpuMeter()
        const d = await driveFloor(pool, sets, CONCURRENCY, performance.now() - t0)
        const floorCpu = meter()
        sides.floor.push({ cpu: floorCpu, requests: d.requests, blocks: (await blocksRead(pool)) - readMid })
        meter = cpuMeter()
        const bare = await driveBareHandler(
          pool,
          world.redisUrl,
          prefix,
          sets,
          CONCURRENCY,
          Math.max(3, Math.round((performance.now() - t0) / 2000))
        )
        sides.bare.push({ cpu: meter(), requests: bare.requests, blocks: 0 })
        rounds.push({ api: a, apiRps: a.requests.total / (a.duration || 1), floor: d, bare })
      }
      cpuLines.push(
        `${s.name.padEnd(32)} via API: ${perRequest(sides.api)}, blocks read ${blocksPerRequest(sides.api)}; via SQL floor: ${perRequest(sides.floor)}, blocks read ${blocksPerRequest(sides.floor)}; via bare handler (its server is in the bench process): ${perRequest(sides.bare)}`
      )
      const ratios = rounds.map((x) => x.apiRps / x.floor.rps)
      const bareRatios = rounds.map((x) => x.bare.rps / x.floor.rps)
      // the round whose API/SQL ratio is the median stands for the scenario; every round is printed
      const mid = rounds.map((_, i) => i).sort((i, j) => ratios[i] - ratios[j])[Math.floor(rounds.length / 2)]
      const m = rounds[mid]
      for (const [i, x] of rounds.entries()) {
        const label = rounds.length === 1 ? s.name : `${s.name}, round ${i + 1}${i === mid ? " *" : ""}`
        console.log(
          `${label.padEnd(40)} ${`${x.api.latency.p50} / ${x.api.latency.p99}`.padStart(16)} ${fmt(x.apiRps).padStart(10)} ${`${x.floor.p50.toFixed(1)} / ${x.floor.p99.toFixed(1)}`.padStart(16)} ${fmt(x.floor.rps).padStart(10)} ${ratios[i].toFixed(2).padStart(8)} ${fmt(x.bare.rps).padStart(9)} ${bareRatios[i].toFixed(2).padStart(9)}`
        )
      }
      figures[`${s.key}_p99_ms`] = m.api.latency.p99
      figures[`${s.key}_rps`] = Math.round(m.apiRps)
      figures[`${s.key}_floor_ratio`] = Number(ratios[mid].toFixed(2))
      figures[`${s.key}_bare_handler_floor_ratio`] = Number(pct(bareRatios, 50).toFixed(2))
      figures[`${s.key}_floor_ratio_min`] = Number(Math.min(...ratios).toFixed(2))
      figures[`${s.key}_floor_ratio_max`] = Number(Math.max(...ratios).toFixed(2))
      figures[`${s.key}_api_cpu_ms`] = Number(apiCpuMs(sides.api).toFixed(2))
    }
    await pool.end()
    console.log(`\nCPU ms per request by process\n${cpuLines.join("\n")}`)
    // The request path alone: a keyed answer the handler holds in memory, asked as often and as many
    // at a time as a scenario's rounds. Key, rate limit, the Effect run, the ETag and HTTP are in it;
    // what a list answer's API CPU holds beyond it is that handler's own work.
    const groups = Array.from({ length: REQUESTS * ROUNDS }, () => "/features/groups")
    await ask(groups.slice(0, REQUESTS), "request path warm-up")
    const pathMeter = cpuMeter()
    const alone = await ask(groups, "request path alone")
    const pathMs = apiCpuMs([{ cpu: pathMeter(), requests: alone.requests.total, blocks: 0 }])
    console.log(
      `the request path alone (/features/groups, an answer from memory, ${fmt(alone.requests.total)} asks): API ${pathMs.toFixed(2)} ms an answer, ${fmt(alone.requests.total / (alone.duration || 1))} req/s; a list answer's API CPU beyond it is its handler's`
    )
    figures.request_path_api_cpu_ms = Number(pathMs.toFixed(2))
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
    console.log(
      `\ncursor paging to depth ${fmt(rows)} (limit 1,000): p50 ${pct(pages, 50).toFixed(1)} ms, p99 ${pct(pages, 99).toFixed(1)} ms; first 5 pages avg ${avg(first).toFixed(1)} ms, last 5 avg ${avg(last).toFixed(1)} ms (flat cost = last ≈ first)`
    )
    console.log(
      JSON.stringify({
        bench: "api",
        features: N,
        requests: REQUESTS,
        warm: WARM,
        concurrency: CONCURRENCY,
        workers: WORKERS,
        ...figures,
        cursor_first_ms: Number(avg(first).toFixed(1)),
        cursor_last_ms: Number(avg(last).toFixed(1))
      })
    )
  } finally {
    await api?.stop()
    await rt.dispose()
    // BENCH_KEEP=1 keeps the loaded database for a look at query plans
    await world.finish(process.env.BENCH_KEEP === "1" || Boolean(reuse))
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
