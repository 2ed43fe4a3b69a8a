/**
 * npm run bench:ingest — prints:
 *  1. records/s through adapter + differ (WZDx payload of 50,000 work zones, steady state and 10 % changed)
 *  2. changes/s through the materializer (50,000 creations drained from the stream into Postgres),
 *     beside its floor: the same events + history rows upserted by plain UNNEST statements in
 *     batches of the same size (no stream, no locks, no checks), and the ratio
 *  3. change-to-queryable lag p50/p99 at a fixed offered rate (1,000 changes/s for 10 s)
 * Targets on a 2-core machine: differ ≥ 50,000 records/s, materializer ≥ 10,000 changes/s, lag p99 < 1 s.
 * Then (unless BENCH_TRACING=off) parts 2 and 3 again in a child process with tracing on
 * (OTEL_EXPORTER_OTLP_ENDPOINT at a span sink in this process, every change carrying a
 * traceparent as the poller writes it), printed side by side: what traces cost.
 * Uses DATABASE_URL's server (a scratch database it drops afterwards) and REDIS_URL under its own prefix.
 * Ends with one JSON line of figures.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Fiber, Layer, Logger, LogLevel, ManagedRuntime, Schema } from "effect"
import { RedisStreams } from "../shared/bus/RedisStreams.js"
import type { SnapEntry } from "../pipeline/diff/Differ.js"
import { diffSlices } from "../pipeline/diff/diffSlices.js"
import { COMMIT_CHUNK, decodeEntries } from "../pipeline/diff/SnapshotStore.js"
import { eventKind } from "../pipeline/diff/kinds.js"
import { PipelineServices } from "../pipeline/PipelineLive.js"
import { runMaterializer } from "../pipeline/stages/materialize/Materializer.js"
import { Feature as WzdxFeature, wzdx } from "../pipeline/sources/wzdx.js"
import { fmt, pct, spanSink } from "./measure.js"
import { randomBytes } from "node:crypto"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { TracingLive, tracingOn } from "../shared/observability/Tracing.js"
import { compiledGuard } from "../shared/schema/compiledGuard.js"
import { scratch } from "./scratch.js"
import { creations, unnestFloor } from "./materializerFloor.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { Redis } from "../shared/db/Redis.js"
import type { EventChange } from "../shared/domain/Change.js"

const N = Number(process.env.BENCH_RECORDS ?? 50_000)
const RATE = Number(process.env.BENCH_RATE ?? 1000)
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 10)
/** batches the materializer writes at once (MATERIALIZE_IN_FLIGHT's default) */
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 2)
/** the traced run, started by the untraced one */
const TRACED_CHILD = process.env.BENCH_TRACED_CHILD === "1"
const figures: Record<string, number | string | boolean> = {}

const feature = (i: number, impact: string) => ({
  id: `bench-${i}`,
  type: "Feature",
  properties: {
    core_details: {
      data_source_id: "b",
      event_type: "work-zone",
      road_names: [`I-${(i % 90) + 1}`],
      direction: "northbound",
      name: `WZ-${i}`,
      description: `Work zone ${i}`,
      creation_date: "2026-11-01T00:00:00Z",
      update_date: "2026-11-01T00:00:00Z"
    },
    start_date: "2026-11-01T06:00:00Z",
    end_date: "2026-12-01T06:00:00Z",
    is_start_date_verified: true,
    is_end_date_verified: false,
    vehicle_impact: impact,
    lanes: [
      { order: 1, type: "general", status: "closed" },
      { order: 2, type: "general", status: "open" }
    ]
  },
  geometry: {
    type: "LineString",
    coordinates: [
      [-93 - (i % 1000) / 1000, 41 + Math.floor(i / 1000) / 100],
      [-93 - (i % 1000) / 1000, 41.005 + Math.floor(i / 1000) / 100]
    ]
  }
})

const payload = (changedEvery: number) =>
  JSON.stringify({
    type: "FeatureCollection",
    feed_info: { version: "4.2" },
    features: Array.from({ length: N }, (_, i) =>
      feature(i, changedEvery > 0 && i % changedEvery === 0 ? "all-lanes-closed" : "some-lanes-closed")
    )
  })

const differBench = () => {
  const ctx = { source: "bench", jurisdiction: "WZDX_IA", polledAt: new Date("2026-11-01T00:00:00Z") }
  const base = payload(0)
  const changed = payload(10)
  // as the poller does: the snapshot's raw fingerprints let unchanged records skip decoding, and
  // records are fingerprinted by their text in the body
  const decode = (text: string, prev: ReadonlyMap<string, SnapEntry>) => {
    const previousRaw = new Map<string, string>()
    for (const [k, e] of prev) if (e.r) previousRaw.set(k, e.r)
    const d = wzdx.decode(JSON.parse(text), { ...ctx, previousRaw, payloadText: text })
    if (d._tag === "Left") throw new Error(d.left)
    return d.right
  }
  // as the poller does: the diff in slices of COMMIT_CHUNK records, each slice's changes and
  // entries committed (to Redis) and dropped before the next is made; only the first poll, which
  // makes the snapshot the timed polls start from, keeps its entries
  const diff = (
    d: ReturnType<typeof decode>,
    prev: ReadonlyMap<string, SnapEntry>,
    at: Date,
    keep?: Map<string, SnapEntry>
  ) => {
    let changes = 0
    const input = {
      source: "bench",
      polledAt: at,
      now: at,
      records: d.records,
      rawHashes: d.rawHashes,
      presentIds: d.unchanged,
      prev
    }
    for (const delta of diffSlices(eventKind, input, COMMIT_CHUNK)) {
      changes += delta.changes.length
      if (keep) for (const [k, v] of delta.upserts) keep.set(k, v)
    }
    return changes
  }
  const prev = new Map<string, SnapEntry>()
  diff(decode(base, new Map()), new Map(), ctx.polledAt, prev)
  const rounds: Array<{ label: string; text: string }> = [
    { label: "steady (no change)", text: base },
    { label: "10 % changed", text: changed }
  ]
  // and the cold path: every record decoded and diffed (first poll, or after a snapshot rebuild),
  // beside its floor: JSON.parse of the payload and the record check the adapter makes (the
  // compiled guard), nothing else; and, for scale, the same check by interpreting the Schema
  // (Schema.is, what adapters ran before the guard). Best of 5 each; the best cold run is split
  // into its three parts
  {
    const runs = 5
    const floorOf = (check: (u: unknown) => boolean) => {
      const times: Array<number> = []
      for (let r = 0; r < runs; r++) {
        const t0 = performance.now()
        const doc = JSON.parse(changed) as { features: ReadonlyArray<unknown> }
        for (const f of doc.features) if (!check(f)) throw new Error("bench feature does not decode")
        times.push(performance.now() - t0)
      }
      return Math.min(...times)
    }
    const floor = floorOf(compiledGuard(WzdxFeature))
    const interpreted = floorOf(Schema.is(WzdxFeature))
    let count = 0
    let cold = { total: Infinity, parse: 0, decode: 0, diff: 0 }
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now()
      const doc = JSON.parse(changed)
      const t1 = performance.now()
      const d = wzdx.decode(doc, { ...ctx, previousRaw: new Map(), payloadText: changed })
      if (d._tag === "Left") throw new Error(d.left)
      const t2 = performance.now()
      count = diff(d.right, new Map(), ctx.polledAt)
      const t3 = performance.now()
      if (t3 - t0 < cold.total) cold = { total: t3 - t0, parse: t1 - t0, decode: t2 - t1, diff: t3 - t2 }
    }
    figures.differ_cold_rps = Math.round(N / (cold.total / 1000))
    console.log(
      `differ  ${"cold (all decoded)".padEnd(20)} ${fmt(N / (cold.total / 1000))} records/s (parse+decode+diff of ${fmt(N)} in ${cold.total.toFixed(0)} ms best of ${runs}; ${count} changes)`
    )
    console.log(
      `  parts: JSON.parse ${cold.parse.toFixed(0)} ms, adapter decode (record check, record texts and raw fingerprints, mapping) ${cold.decode.toFixed(0)} ms, diff (content hash, ids, changes, entries) ${cold.diff.toFixed(0)} ms`
    )
    console.log(
      `  floor: JSON.parse + the adapter's record check ${fmt(N / (floor / 1000))} records/s (${floor.toFixed(0)} ms); cold differ ${(floor / cold.total).toFixed(2)}x its floor`
    )
    console.log(
      `  the same with the record check by Schema.is (interpreted) ${fmt(N / (interpreted / 1000))} records/s (${interpreted.toFixed(0)} ms)`
    )
  }
  for (const { label, text } of rounds) {
    const times: Array<number> = []
    let changes = 0
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now()
      const d = decode(text, prev)
      const at = new Date(ctx.polledAt.getTime() + (r + 1) * 60_000)
      changes = diff(d, prev, at)
      times.push(performance.now() - t0)
    }
    const best = Math.min(...times)
    figures[`differ_${label.startsWith("steady") ? "steady" : "changed"}_rps`] = Math.round(N / (best / 1000))
    console.log(
      `differ  ${label.padEnd(20)} ${fmt(N / (best / 1000))} records/s (parse+decode+diff of ${fmt(N)} in ${best.toFixed(0)} ms best of 5, median ${pct(times, 50).toFixed(0)} ms; ${changes} changes)`
    )
  }
  // every poll reads its snapshot back from Redis through the entry Schema; the floor is JSON.parse of the same strings
  {
    const stored = [...prev.values()].map((e) => JSON.stringify(e))
    const asHash = Object.fromEntries(stored.map((v, i) => [String(i), v]))
    const best = (f: () => void) =>
      Math.min(
        ...Array.from({ length: 3 }, () => {
          const t0 = performance.now()
          f()
          return performance.now() - t0
        })
      )
    const floor = best(() => {
      for (const v of stored) JSON.parse(v)
    })
    const schema = best(() => {
      if (decodeEntries(asHash, eventKind.entry)?.size !== stored.length)
        throw new Error("snapshot entries do not decode")
    })
    console.log(
      `snapshot load       ${fmt(stored.length / (schema / 1000))} entries/s through the Schema (${fmt(stored.length)} in ${schema.toFixed(0)} ms; JSON.parse floor ${floor.toFixed(0)} ms, ${(schema / floor).toFixed(1)}x)`
    )
  }
}

const main = async () => {
  console.log(`ingest benchmark on ${process.arch}, node ${process.version}`)
  if (process.env.BENCH_SKIP_DIFFER !== "1" && !TRACED_CHILD) differBench()

  const world = scratch("ingest")
  const prefix = world.prefix
  const rt = ManagedRuntime.make(
    PipelineServices.pipe(
      Layer.provideMerge(baseLayer(world.config, seedReferenceData)),
      Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning)),
      Layer.provideMerge(TracingLive("bench"))
    )
  )
  try {
    await rt.runPromise(
      Effect.gen(function* () {
        const streams = yield* RedisStreams
        const redis = yield* Redis
        const sql = yield* SqlClient.SqlClient
        const xadd = (cs: ReadonlyArray<EventChange>) =>
          redis.use("xadd", async (c) => {
            const m = c.multi()
            // traced, each call stands for one poll: its changes carry that poll's context
            const t = tracingOn
              ? `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-01`
              : undefined
            for (const ch of cs)
              m.xAdd(streams.streamKey, "*", t ? { c: JSON.stringify(ch), t } : { c: JSON.stringify(ch) })
            await m.exec()
          })
        const drained = (group: string) =>
          Effect.map(streams.groups, (gs) => gs.some((g) => g.group === group && g.pending === 0 && g.lag === 0))

        // 2. materializer throughput (a full stream drained by one consumer) and its floor (Postgres's
        // own speed at upserting the same rows, arrays built beforehand), in alternating rounds on
        // the same empty tables, so a noisy neighbour slows both alike; the best round of each counts
        const batch = Number(process.env.BENCH_BATCH ?? 1000)
        const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
        yield* streams.ensureGroup("materialize")
        const materializerRound = Effect.gen(function* () {
          yield* sql`TRUNCATE events, event_history, event_links, cell_marks`
          for (let off = 0; off < N; off += 5000)
            yield* xadd(creations(Math.min(5000, N - off), off, () => new Date().toISOString()))
          const t0 = performance.now()
          const consumer = yield* Effect.fork(
            runMaterializer({
              group: "materialize",
              consumer: "bench",
              batchSize: batch,
              blockMs: 50,
              claimIdleMs: 60_000,
              maxDeliveries: 5,
              inFlight: IN_FLIGHT
            })
          )
          while (!(yield* drained("materialize"))) yield* Effect.sleep("5 millis")
          const secs = (performance.now() - t0) / 1000
          yield* Fiber.interrupt(consumer)
          const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM events`
          return { n, secs }
        })
        const floorRound = (connections: number) => unnestFloor(N, batch, connections)
        const mats: Array<number> = []
        const floors: Array<number> = []
        const wideFloors: Array<number> = []
        for (let r = 0; r < ROUNDS; r++) {
          const m = yield* materializerRound
          const f = yield* floorRound(1)
          const w = yield* floorRound(IN_FLIGHT)
          mats.push(m.n / m.secs)
          floors.push(f.n / f.secs)
          wideFloors.push(w.n / w.secs)
          console.log(
            `  round ${r + 1}: materializer ${fmt(m.n / m.secs)} changes/s (${fmt(m.n)} in ${m.secs.toFixed(2)} s); floor ${fmt(f.n / f.secs)} rows/s (${f.secs.toFixed(2)} s), on ${IN_FLIGHT} connections ${fmt(w.n / w.secs)} rows/s (${w.secs.toFixed(2)} s)`
          )
        }
        const bestMat = Math.max(...mats)
        const bestFloor = Math.max(...floors)
        const bestWide = Math.max(...wideFloors)
        console.log(
          `materializer        ${fmt(bestMat)} changes/s (${fmt(N)} creations with history rows, batches of up to ${batch}, ${IN_FLIGHT} in flight, best of ${ROUNDS})`
        )
        console.log(
          `  floor: UNNEST upsert ${fmt(bestFloor)} rows/s (the same events + history rows, one connection, best of ${ROUNDS}); materializer ${(bestMat / bestFloor).toFixed(2)}x its floor`
        )
        console.log(
          `  floor on ${IN_FLIGHT} connections ${fmt(bestWide)} rows/s; materializer ${(bestMat / bestWide).toFixed(2)}x that`
        )
        Object.assign(figures, {
          materializer_cps: Math.round(bestMat),
          floor_rps: Math.round(bestFloor),
          floor_wide_rps: Math.round(bestWide),
          materializer_floor_ratio: Number((bestMat / bestWide).toFixed(2))
        })
        const relaunched = yield* Effect.fork(
          runMaterializer({
            group: "materialize",
            consumer: "bench",
            batchSize: batch,
            blockMs: 50,
            claimIdleMs: 60_000,
            maxDeliveries: 5,
            inFlight: IN_FLIGHT
          })
        )

        // 3. lag at a fixed offered rate
        yield* sql`TRUNCATE events, event_history`
        const tick = 50 // ms
        const perTick = Math.round((RATE * tick) / 1000)
        const total = RATE * LAG_SECONDS
        const start = performance.now()
        let sent = 0
        while (sent < total) {
          const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * RATE) + perTick)
          if (due > sent) {
            yield* xadd(creations(due - sent, N + sent, () => new Date().toISOString()))
            sent = due
          }
          yield* Effect.sleep(`${tick} millis`)
        }
        while (!(yield* drained("materialize"))) yield* Effect.sleep("20 millis")
        yield* Fiber.interrupt(relaunched)
        const lags = (yield* sql<{ ms: number }>`
        SELECT extract(epoch FROM (materialized_at - emitted_at)) * 1000 AS ms FROM events`).map((r) => Number(r.ms))
        Object.assign(figures, { lag_p50_ms: Math.round(pct(lags, 50)), lag_p99_ms: Math.round(pct(lags, 99)) })
        console.log(
          `lag at ${fmt(RATE)} changes/s  p50 ${pct(lags, 50).toFixed(0)} ms, p99 ${pct(lags, 99).toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms over ${fmt(lags.length)} changes (${LAG_SECONDS} s)`
        )
        const keys = yield* redis.use("keys", (c) => c.keys(`${prefix}:*`))
        if (keys.length > 0) yield* redis.use("del", (c) => c.del(keys))
      })
    )
  } finally {
    await rt.dispose()
    await world.drop()
  }
  if (TRACED_CHILD) return console.log(JSON.stringify({ bench: "ingest-traced", ...figures }))
  const traced = process.env.BENCH_TRACING === "off" ? undefined : await tracedRun()
  if (traced) {
    console.log(
      `tracing off / on: materializer ${fmt(Number(figures.materializer_cps))} / ${fmt(Number(traced.figures.materializer_cps))} changes/s (${Number(traced.figures.materializer_floor_ratio).toFixed(2)}x the floor traced, ${Number(figures.materializer_floor_ratio).toFixed(2)}x untraced); lag p99 ${figures.lag_p99_ms} / ${traced.figures.lag_p99_ms} ms; ${fmt(traced.spans)} spans exported`
    )
    Object.assign(figures, {
      traced_materializer_cps: traced.figures.materializer_cps,
      traced_materializer_floor_ratio: traced.figures.materializer_floor_ratio,
      traced_lag_p99_ms: traced.figures.lag_p99_ms,
      traced_spans: traced.spans
    })
  }
  console.log(JSON.stringify({ bench: "ingest", records: N, rate: RATE, in_flight: IN_FLIGHT, ...figures }))
}

/** Parts 2 and 3 again in a child with tracing on, its spans counted by a sink here. */
const tracedRun = async () => {
  const sink = await spanSink()
  console.log("\nthe same with tracing on (OTLP to a sink in this process):")
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
        env: { ...process.env, BENCH_TRACED_CHILD: "1", ...sink.env },
        stdio: ["ignore", "pipe", "inherit"]
      })
      let text = ""
      child.stdout.on("data", (d: Buffer) => {
        text += d.toString("utf8")
        process.stdout.write(d.toString("utf8").replace(/^(?!\{)/gm, "  "))
      })
      child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`traced run exited ${code}`))))
    })
    const line = out
      .trim()
      .split("\n")
      .reverse()
      .find((l) => l.startsWith("{"))
    return line ? { figures: JSON.parse(line) as Record<string, number>, spans: sink.spans() } : undefined
  } finally {
    sink.close()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
