/**
 * npm run bench:routing — the bundled US + Canada network with 1,000,000 features and 100,000
 * events loaded along it (a scratch database), then 1,000 random origin/destination pairs up to
 * 3,000 km apart. Prints p50/p99 and routes/s for:
 *   - the path search alone (the built-in engine in this process, no live data),
 *   - the whole request (POST /routing/route to the API as its own process: search, live-data
 *     rerouting, warnings, tolls, mileage and truck parking),
 *   - a plain Dijkstra on the same graph (the same search with a zero heuristic), the floor the
 *     landmarks (ALT) heuristic is measured against, with the nodes each settles,
 *   - the same requests with hours of service (`truck.hos`, us) and truck parking on,
 *   - saved-route refetches (warnings re-evaluated) at a steady 100 a second for 30 s, beside
 *     the database's own time to read the same saved rows.
 * Targets on a 2-core machine: whole request p99 < 250 ms (with and without hos), path search
 * p99 < 50 ms, refetch (re-evaluation) p99 < 50 ms at 100/s.
 * BENCH_PAIRS, BENCH_FEATURES, BENCH_EVENTS, BENCH_DIJKSTRA_PAIRS, BENCH_CONCURRENCY change the load;
 * BENCH_REEVAL_RATE and BENCH_REEVAL_S the refetch load;
 * BENCH_KEEP=1 keeps the database, BENCH_REUSE_DB=<name> runs on a kept one without loading.
 * BENCH_WARMUP (100) routes between other pairs go first, not counted (a started API is cold).
 * BENCH_CHURN event changes a second (0 unless set; 200 is the whole continent's rate) are
 * written, and their cells marked, from the first whole request to the last refetch, as the
 * feeds change in service.
 */
import { availableParallelism } from "node:os"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { readFileSync } from "node:fs"
import { Agent, get } from "node:http"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { createKey } from "../infra/admin/keys.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { makeBuiltinEngine } from "../shared/routing/engine/builtin/BuiltinEngine.js"
import { RoadGraph } from "../shared/routing/engine/builtin/RoadGraph.js"
import { readTruckSpeedTables } from "../shared/routing/engine/builtin/truckSpeeds.js"
import { haversineM } from "../shared/geo/distance.js"
import { RoadNetwork } from "../shared/routing/network/NetworkFile.js"
import { violatedLimits } from "../shared/routing/engine/builtin/roadLimits.js"
import { cpuMeter } from "./cpu.js"
import { fmt, pct, run, startApi } from "./measure.js"
import { loadAlongNetwork } from "./routingLoad.js"
import { scratch } from "./scratch.js"
import { seededRandom } from "./random.js"

const PAIRS = Number(process.env.BENCH_PAIRS ?? 1000)
/** the API's worker processes (API_WORKERS, default the core count, as the API itself reads it) */
const WORKERS = Number(process.env.API_WORKERS || availableParallelism())
const FEATURES = Number(process.env.BENCH_FEATURES ?? 1_000_000)
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000)
const DIJKSTRA_PAIRS = Number(process.env.BENCH_DIJKSTRA_PAIRS ?? 100)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2)
const REEVAL_RATE = Number(process.env.BENCH_REEVAL_RATE ?? 100)
const REEVAL_S = Number(process.env.BENCH_REEVAL_S ?? 30)
/**
 * Event changes a second written while routes are asked for (0, the default, as the
 * targets were set: none): the whole continent's feeds change about 190 records a second
 * (bench:scale: 382,012 records a round, about 3 % of them each minute), and each change marks
 * its res-5 cell as the materializer does, so routes meet the reads they kept turning stale,
 * and saved routes their placements, as they would in service.
 */
const CHURN = Number(process.env.BENCH_CHURN ?? 0)
/**
 * Routes of other pairs sent to the API before the timed phases, as a server that has run a
 * while has answered (its JIT compiled, its heap grown, its kept reads filled): the first tens
 * of requests after a start take twice the time of later ones, and they alone made the whole
 * request's p99. Their figures are printed beside, not counted.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100)
const BATCH_SIZE = 100
const MAX_KM = 3000

const rand = seededRandom(23)

const net = RoadNetwork.decode(readFileSync(new URL("../shared/routing/data/us-ca.network.json.gz", import.meta.url)))

/** The truck every request of the bench describes. */
const TRUCK = { height_m: 4.1, weight_t: 36, hazmat: false }
/** a road this truck may drive (not a parkway or park road closed to trucks) */
const truckRoad = (e: number) => violatedLimits(net.props[net.edgeProp[e]], TRUCK).length === 0

type Pair = [{ lat: number; lng: number }, { lat: number; lng: number }]

/** Node pairs 10 … 3,000 km apart, both on roads of the main network the bench's truck may drive. */
const pairs = (graph: RoadGraph, count = PAIRS, draw = rand) => {
  const out: Array<Pair> = []
  while (out.length < count) {
    const a = Math.floor(draw() * net.nodeCount)
    const b = Math.floor(draw() * net.nodeCount)
    const km = haversineM(net.nodeLat[a], net.nodeLng[a], net.nodeLat[b], net.nodeLng[b]) / 1000
    if (km < 10 || km > MAX_KM) continue
    const sa = graph.snap(net.nodeLat[a], net.nodeLng[a], 100, truckRoad)
    const sb = graph.snap(net.nodeLat[b], net.nodeLng[b], 100, truckRoad)
    if (!sa || !sb) continue
    out.push([
      { lat: net.nodeLat[a], lng: net.nodeLng[a] },
      { lat: net.nodeLat[b], lng: net.nodeLng[b] }
    ])
  }
  return out
}

/** the API's /metrics is off without a token: the bench sets one of its own */
const METRICS_TOKEN = "bench-routing"

/**
 * Waits until every API worker has loaded its barriers known ahead (the workers' published
 * `api_routing_standing_barriers`, -1 while loading), as a server that has run a while has.
 */
const standingBarriersLoaded = async (base: string) => {
  const t0 = performance.now()
  for (;;) {
    const text = await fetch(`${base.replace(/\/api\/v1$/, "")}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` }
    }).then(
      (r) => r.text(),
      () => ""
    )
    const values = [...text.matchAll(/^api_routing_standing_barriers\{[^}]*\} (-?\d+)/gm)].map((m) => Number(m[1]))
    if (values.length >= WORKERS && values.every((v) => v >= 0)) {
      console.log(
        `barriers known ahead loaded by ${values.length} workers (${values.join(", ")}) in ${((performance.now() - t0) / 1000).toFixed(1)} s after the first route`
      )
      return
    }
    if (performance.now() - t0 > 300_000)
      throw new Error(
        `the API's workers did not load their barriers known ahead in 5 minutes: ${values.join(", ") || "no series"}`
      )
    await new Promise((r) => setTimeout(r, 1000))
  }
}

/**
 * Writes CHURN event changes a second until stopped, ten batches a second, each as the
 * materializer leaves it: the rows' versions moved and their res-5 cells marked by the writing
 * transaction.
 */
const startChurn = (sql: SqlClient.SqlClient) => {
  const pickEvent = seededRandom(41)
  let written = 0
  let stopped = false
  const perTick = Math.round(CHURN / 10)
  const loop = (async () => {
    const t0 = performance.now()
    for (let tick = 0; !stopped && perTick > 0; tick++) {
      const wait = t0 + tick * 100 - performance.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      const ids = Array.from({ length: perTick }, () => `ev_bench_${Math.floor(pickEvent() * EVENTS)}`)
      await Effect.runPromise(sql`
        WITH u AS (UPDATE events SET version = version + 1, last_updated = now(), materialized_at = clock_timestamp()
                   WHERE id = ANY(${ids}) RETURNING h3_r5)
        INSERT INTO cell_marks (cell, xid) SELECT DISTINCT h3_r5, pg_current_xact_id() FROM u ORDER BY 1
        ON CONFLICT (cell) DO UPDATE SET xid = excluded.xid`)
      written += ids.length
    }
  })()
  return async () => {
    stopped = true
    await loop
    return written
  }
}

/** progress on stderr, so a person (or a profiler waiting for a phase) sees where a run is; stdout keeps the table */
const phase = (name: string) => process.stderr.write(`[bench:routing] ${new Date().toISOString()} ${name}\n`)

/** BENCH_REUSE_DB=<name>: a database a BENCH_KEEP=1 run left, loaded already */
const REUSE = process.env.BENCH_REUSE_DB

const main = async () => {
  const world = scratch("routing", {}, REUSE)
  const rt = ManagedRuntime.make(
    baseLayer(world.config, seedReferenceData).pipe(Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning)))
  )
  let api: Awaited<ReturnType<typeof startApi>> | undefined
  try {
    console.log(
      `routing benchmark on ${process.arch}, node ${process.version}: network ${fmt(net.nodeCount)} nodes / ${fmt(net.edgeCount)} edges, ${fmt(PAIRS)} pairs up to ${fmt(MAX_KM)} km`
    )
    const graph = new RoadGraph(net)
    const engine = makeBuiltinEngine(
      net,
      graph,
      readTruckSpeedTables(new URL("../shared/routing/data/tables", import.meta.url).pathname)
    )
    const od = pairs(graph)
    const req = (i: number) => ({
      points: od[i],
      truck: TRUCK,
      avoid: { toll_road: false, ferry: false, tunnel: false },
      alternatives: 0,
      exclusions: []
    })

    // warm the JIT the way a running API is warm
    for (let i = 0; i < 20; i++) await Effect.runPromise(engine.route(req(PAIRS - 1 - i)))
    phase("the path search alone")
    // 1. the path search alone
    const kms: Array<number> = []
    let k = 0
    const search = await run(PAIRS, 1, async () => {
      const a = await Effect.runPromise(engine.route(req(k++)))
      kms.push(a.routes[0].distance_m / 1000)
    })
    console.log(`route lengths: p50 ${fmt(pct(kms, 50))} km, max ${fmt(Math.max(...kms))} km`)

    phase("the bare search and a plain Dijkstra")
    // 2. the bare search with and without its heuristic (a plain Dijkstra), on the first pairs
    const plain = { blocked: () => false, cost: (_e: number, sec: number) => sec }
    const snapped = od
      .slice(0, Math.min(DIJKSTRA_PAIRS, PAIRS))
      .map(
        ([from, to]) =>
          [graph.snap(from.lat, from.lng, 100, () => true)!, graph.snap(to.lat, to.lng, 100, () => true)!] as const
      )
    const settled = { astar: [] as Array<number>, dijkstra: [] as Array<number> }
    let d = 0
    const floor = await run(snapped.length, 1, async () => {
      const [a, b] = snapped[d++]
      graph.path(a, b, plain, false)
      settled.dijkstra.push(graph.settled)
    })
    let n2 = 0
    const sameSearch = await run(snapped.length, 1, async () => {
      const [a, b] = snapped[n2++]
      graph.path(a, b, plain, true)
      settled.astar.push(graph.settled)
    })

    phase("whole requests")
    // 3. the whole request against the API, with live data along every route
    if (REUSE === undefined) {
      const secs = await rt.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          loadAlongNetwork(sql, net, { features: FEATURES, events: EVENTS, draw: rand })
        )
      )
      console.log(
        `loaded ${fmt(FEATURES)} features and ${fmt(EVENTS)} events along the network in ${secs.toFixed(0)} s`
      )
    } else console.log(`reusing the loaded database ${REUSE}`)
    // the bench measures the service, not the plan's per-minute limit (100 refetches a second exceed it)
    const { key } = await rt.runPromise(
      createKey({ plan: "enterprise", email: "bench@example.com", rateLimitRpm: 1_000_000 })
    )
    api = await startApi(world.dbUrl, world.prefix, { METRICS_TOKEN })
    const post = async (i: number, hos = false, pair: Pair = od[i]) => {
      const [origin, destination] = pair
      const truck = { profile: "tractor", weight_t: 36, height_m: 4.1, ...(hos ? { hos: { ruleset: "us" } } : {}) }
      // a connection per request: the API's workers accept connections themselves, and an idle one
      // takes the next; two kept-alive connections can both sit on one worker for a whole phase,
      // which measured one worker's queue, not the service (hos p99 427 ms that way)
      const r = await fetch(`${api!.base}/routing/route`, {
        method: "POST",
        headers: { "X-API-Key": key, "Content-Type": "application/json", Connection: "close" },
        body: JSON.stringify({
          origin,
          destination,
          truck,
          include: ["tolls", "mileage_by_state"],
          enrichment: { include_features: ["truck_parking"] }
        })
      })
      if (r.status !== 200) throw new Error(`route ${i}: HTTP ${r.status} ${await r.text()}`)
      return (await r.json()) as {
        route_id: string
        hazard_count: number
        avoided: Array<unknown>
        routes: Array<{ hos?: Array<unknown> }>
      }
    }
    await post(0) // the API loads its network on start; this waits for it
    await standingBarriersLoaded(api.base)
    const warmPairs = pairs(graph, WARMUP, seededRandom(29))
    let wu = 0
    const warmup =
      WARMUP > 0 ? await run(WARMUP, CONCURRENCY, async () => void (await post(-1, false, warmPairs[wu++]))) : undefined
    const churnT0 = performance.now()
    const stopChurn = startChurn(await rt.runPromise(SqlClient.SqlClient))
    const hazards: Array<number> = []
    let avoided = 0
    let w = 0
    // where the machine's time goes per request: the API's processes and Postgres (bench:load's meter)
    const wholeCpu = cpuMeter()
    const whole = await run(PAIRS, CONCURRENCY, async () => {
      const body = await post(w++)
      hazards.push(body.hazard_count)
      avoided += body.avoided.length
    })

    phase("whole requests with hos")
    // 4. the same requests with hours of service and truck parking: the saved routes for step 5
    const saved: Array<string> = []
    const stops: Array<number> = []
    let h = 0
    const wholeCpuS = wholeCpu()
    const hosCpu = cpuMeter()
    const withHos = await run(PAIRS, CONCURRENCY, async () => {
      const body = await post(h++, true)
      saved.push(body.route_id)
      stops.push(body.routes[0].hos?.length ?? 0)
    })

    const hosCpuS = hosCpu()

    phase("a fleet's day in batches")
    // 4b. a fleet's day: the same routes sent as batches of up to 100, as many at once as the API
    // has workers, each on its own connection (docs/api/routing.md "Planning a fleet")
    const batches: Array<Array<number>> = []
    for (let i = 0; i < PAIRS; i += BATCH_SIZE)
      batches.push(Array.from({ length: Math.min(BATCH_SIZE, PAIRS - i) }, (_, j) => i + j))
    let nextBatch = 0
    let fleetFailed = 0
    const fleetT0 = performance.now()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (nextBatch < batches.length) {
          const b = batches[nextBatch++]
          const r = await fetch(`${api!.base}/routing/route/batch`, {
            method: "POST",
            headers: { "X-API-Key": key, "Content-Type": "application/json", Connection: "close" },
            body: JSON.stringify({
              routes: b.map((i) => ({
                origin: od[i][0],
                destination: od[i][1],
                truck: { profile: "tractor", weight_t: 36, height_m: 4.1 },
                include: ["tolls", "mileage_by_state"],
                enrichment: { include_features: ["truck_parking"] }
              }))
            })
          })
          if (r.status !== 200) throw new Error(`batch: HTTP ${r.status} ${await r.text()}`)
          fleetFailed += ((await r.json()) as { failed: number }).failed
        }
      })
    )
    const fleetS = (performance.now() - fleetT0) / 1000

    phase("saved-route refetches")
    // 5. refetches at a steady rate, each answered with its warnings worked out again; at most 64
    // connections, as a client pool would hold, so a backlog waits in the client and is timed
    const agent = new Agent({ keepAlive: true, maxSockets: 64 })
    const refetch = (id: string) =>
      new Promise<void>((resolve, reject) => {
        get(`${api!.base}/routing/route/saved/${id}`, { agent, headers: { "X-API-Key": key } }, (res) => {
          res.resume()
          res.on("end", () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`refetch ${id}: HTTP ${res.statusCode}`))
          )
        }).on("error", reject)
      })
    for (let i = 0; i < 10; i++) await refetch(saved[i])
    const reLat: Array<number> = []
    let failed = 0
    const refetchCpu = cpuMeter()
    // how late this process itself sent each refetch: its own pauses are timed as the API's
    const sentLate: Array<number> = []
    const loopDelay = monitorEventLoopDelay({ resolution: 10 })
    loopDelay.enable()
    const t0 = performance.now()
    const inFlight: Array<Promise<void>> = []
    /** the second of the phase each refetch over 50 ms was due in: a tail spread out, or one stall */
    const reSlowAt: Array<number> = []
    for (let i = 0; i < REEVAL_RATE * REEVAL_S; i++) {
      const due = t0 + (i * 1000) / REEVAL_RATE
      const wait = due - performance.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      sentLate.push(Math.max(0, performance.now() - due))
      // open loop: a slow answer does not slow the arrivals
      inFlight.push(
        refetch(saved[i % saved.length]).then(
          () => {
            const ms = performance.now() - due
            reLat.push(ms)
            if (ms > 50) reSlowAt.push(Math.floor((due - t0) / 1000))
          },
          () => void failed++
        )
      )
    }
    await Promise.all(inFlight)
    loopDelay.disable()
    const refetchCpuS = refetchCpu()
    agent.destroy()
    const churned = await stopChurn()
    console.log(
      `event changes written while routes were asked for: ${fmt(churned)} (${(churned / ((performance.now() - churnT0) / 1000)).toFixed(0)} a second, BENCH_CHURN ${CHURN})`
    )
    const reSecs = (performance.now() - t0) / 1000
    // the database's own time to hand over the same saved rows, as a refetch reads them
    const rowFloor = await rt.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.gen(function* () {
          const lat: Array<number> = []
          for (let i = 0; i < Math.min(saved.length, 300); i++) {
            const s0 = performance.now()
            yield* sql`SELECT evaluation, answer, placed_text, geometry_text, geometry_ends, timing FROM saved_routes WHERE id = ${saved[i]}`
            lat.push(performance.now() - s0)
          }
          return lat
        })
      )
    )

    console.log(`\n${"measure".padEnd(44)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"routes/s".padStart(9)}`)
    const line = (name: string, r: { p50: number; p99: number; rps: number }) =>
      console.log(
        `${name.padEnd(44)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${r.rps.toFixed(1).padStart(9)}`
      )
    line(`path search, A* + landmarks (${fmt(PAIRS)} pairs)`, search)
    line(`bare A* + landmarks (first ${snapped.length} pairs)`, sameSearch)
    line(`bare plain Dijkstra (same ${snapped.length} pairs)`, floor)
    if (warmup) line(`  first ${fmt(WARMUP)} after start (other pairs, not counted)`, warmup)
    line(`whole request (${CONCURRENCY} at a time)`, whole)
    line(`whole request with hos (${CONCURRENCY} at a time)`, withHos)
    line(`saved-route refetch, ${REEVAL_RATE}/s open loop`, {
      p50: pct(reLat, 50),
      p99: pct(reLat, 99),
      rps: reLat.length / reSecs
    })
    line(`  floor: Postgres reads the saved row`, { p50: pct(rowFloor, 50), p99: pct(rowFloor, 99), rps: 0 })
    line(`  the bench's own lateness sending them`, { p50: pct(sentLate, 50), p99: pct(sentLate, 99), rps: 0 })
    console.log(
      `  (the bench process's event loop delay over the refetches: p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms)`
    )
    const slowSeconds = new Map<number, number>()
    for (const sec of reSlowAt) slowSeconds.set(sec, (slowSeconds.get(sec) ?? 0) + 1)
    console.log(
      `  (refetches over 50 ms: ${fmt(reSlowAt.length)}, by the second of the phase they were due in: ${
        [...slowSeconds]
          .sort((a, b) => a[0] - b[0])
          .map(([sec, n]) => `+${sec} s ${n}`)
          .join(", ") || "none"
      })`
    )
    console.log(
      `fleet: ${fmt(PAIRS)} routes as ${batches.length} batches of up to ${BATCH_SIZE}, ${CONCURRENCY} at a time: ${fleetS.toFixed(1)} s (${(PAIRS / fleetS).toFixed(1)} routes/s, ${fleetFailed} failed)`
    )
    const perRequest = (cpu: { api: number; postgres: number }, n: number) => ({
      api: (cpu.api * 1000) / n,
      postgres: (cpu.postgres * 1000) / n
    })
    const cpuWhole = perRequest(wholeCpuS, PAIRS)
    const cpuHos = perRequest(hosCpuS, PAIRS)
    const cpuRefetch = perRequest(refetchCpuS, Math.max(reLat.length, 1))
    console.log(
      `CPU ms per request (API processes, Postgres): whole ${cpuWhole.api.toFixed(1)}, ${cpuWhole.postgres.toFixed(1)}; with hos ${cpuHos.api.toFixed(1)}, ${cpuHos.postgres.toFixed(1)}; refetch ${cpuRefetch.api.toFixed(1)}, ${cpuRefetch.postgres.toFixed(1)}`
    )
    console.log(
      `\nDijkstra / A* time on the same pairs: ${(floor.p50 / sameSearch.p50).toFixed(1)}× at p50, ${(floor.p99 / sameSearch.p99).toFixed(1)}× at p99`
    )
    console.log(
      `nodes settled: A* p50 ${fmt(pct(settled.astar, 50))} / p99 ${fmt(pct(settled.astar, 99))}, Dijkstra p50 ${fmt(pct(settled.dijkstra, 50))} / p99 ${fmt(pct(settled.dijkstra, 99))} of ${fmt(net.nodeCount)}`
    )
    console.log(
      `warnings per route: p50 ${pct(hazards, 50)}, p99 ${pct(hazards, 99)}; live barriers routed around: ${fmt(avoided)}`
    )
    console.log(
      `HOS stops per route: p50 ${pct(stops, 50)}, p99 ${pct(stops, 99)}; refetches: ${fmt(reLat.length)} answered in ${reSecs.toFixed(1)} s, ${fmt(failed)} failed`
    )
    const reP99 = pct(reLat, 99)
    console.log(
      `targets: whole request p99 < 250 ms (${whole.p99 < 250 ? "met" : "MISSED"}), with hos (${withHos.p99 < 250 ? "met" : "MISSED"}), path search p99 < 50 ms (${search.p99 < 50 ? "met" : "MISSED"}), refetch p99 < 50 ms (${reP99 < 50 ? "met" : "MISSED"}), 1,000 routes for a fleet < 60 s (${(fleetS * 1000) / PAIRS < 60 ? "met" : "MISSED"})`
    )
    const r1 = (x: number) => Number(x.toFixed(1))
    console.log(
      JSON.stringify({
        bench: "routing",
        pairs: PAIRS,
        search_p50_ms: r1(search.p50),
        search_p99_ms: r1(search.p99),
        dijkstra_p50_ms: r1(floor.p50),
        dijkstra_p99_ms: r1(floor.p99),
        whole_p50_ms: r1(whole.p50),
        whole_p99_ms: r1(whole.p99),
        hos_p50_ms: r1(withHos.p50),
        hos_p99_ms: r1(withHos.p99),
        refetch_p50_ms: r1(pct(reLat, 50)),
        refetch_p99_ms: r1(reP99),
        refetch_failed: failed,
        row_floor_p50_ms: r1(pct(rowFloor, 50)),
        refetch_sent_late_p99_ms: r1(pct(sentLate, 99)),
        refetch_client_loop_max_ms: r1(loopDelay.max / 1e6),
        whole_api_cpu_ms: r1(cpuWhole.api),
        hos_api_cpu_ms: r1(cpuHos.api),
        refetch_api_cpu_ms: r1(cpuRefetch.api),
        refetch_pg_cpu_ms: r1(cpuRefetch.postgres),
        fleet_s: r1(fleetS),
        fleet_1000_s: r1((fleetS * 1000) / PAIRS),
        fleet_routes_per_s: r1(PAIRS / fleetS),
        fleet_failed: fleetFailed,
        churn_per_s: CHURN,
        warmup_pairs: WARMUP,
        ...(warmup ? { warmup_p50_ms: r1(warmup.p50), warmup_p99_ms: r1(warmup.p99) } : {})
      })
    )
  } finally {
    await api?.stop()
    await rt.dispose()
    await world.finish(process.env.BENCH_KEEP === "1" || Boolean(REUSE))
  }
}

void main().catch((e) => {
  console.error(e)
  process.exit(1)
})
