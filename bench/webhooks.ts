/**
 * npm run bench:webhooks — 1,000 active immediate subscriptions (20 on each of 50 states), a
 * receiver on loopback in its own process, the webhook stage in this one. Prints:
 *  1. drain: deliveries/s while a backlog of changes (BENCH_BACKLOG_CHANGES) is delivered
 *  2. latency: change emitted → POST received, p50/p99, at an offered BENCH_RATE deliveries/s for BENCH_SECONDS
 * Targets on a 2-core machine: ≥ 1,000 deliveries/s, p99 < 1 s.
 * Uses DATABASE_URL's server (a scratch database it drops afterwards) and REDIS_URL under its own prefix.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { fork } from "node:child_process"
import { createKey } from "../infra/admin/keys.js"
import { MaterializedStream } from "../shared/bus/RedisStreams.js"
import { diffPoll } from "../pipeline/diff/Differ.js"
import { PipelineServices } from "../pipeline/PipelineLive.js"
import { WEBHOOKS_GROUP, WebhooksLive } from "../pipeline/stages/webhooks/WebhookStage.js"
import { baseLayer } from "../shared/db/BaseLive.js"
import { seedReferenceData } from "../infra/seed/seed.js"
import { Redis } from "../shared/db/Redis.js"
import type { EventChange } from "../shared/domain/Change.js"
import type { EventObservation } from "../shared/domain/Event.js"
import { createSubscription } from "../shared/webhooks/subscriptions.js"
import { fmt, pct } from "./measure.js"
import { scratch } from "./scratch.js"

const SUBS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 1000)
const STATES = [
  "AL",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "FL",
  "GA",
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
  "HI",
  "AK"
]
const PER_STATE = SUBS / STATES.length
const BACKLOG = Number(process.env.BENCH_BACKLOG_CHANGES ?? 1000)
const RATE = Number(process.env.BENCH_RATE ?? 1000)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15)
const CONCURRENCY = Number(process.env.WEBHOOK_CONCURRENCY ?? 64)

const RECEIVER = `
const http = require("node:http")
const server = http.createServer((req, res) => {
  const chunks = []
  req.on("data", (c) => chunks.push(c))
  req.on("end", () => {
    const now = Date.now()
    res.end("ok")
    try { const b = JSON.parse(Buffer.concat(chunks).toString()); process.send({ t: now, id: b.data.event_id }) } catch {}
  })
})
server.keepAliveTimeout = 60000
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }))
`

let serial = 0
const observation = (jurisdiction: string): EventObservation => ({
  source_id: `wb-${serial++}`,
  jurisdiction,
  type: "incident",
  sub_type: null,
  cause: "accident",
  severity: "minor",
  status: "active",
  title: "bench",
  description: "",
  latitude: 40,
  longitude: -75,
  geometry: null,
  affected_roads: ["I-1"],
  direction: null,
  lanes_affected: null,
  start_time: null,
  end_time: null,
  estimated_start_time: null,
  estimated_end_time: null,
  source_created_at: null,
  source_updated_at: null,
  road_class: null,
  metadata: {}
})

/** `n` created changes, round-robin over the states, emitted now. */
const creations = (n: number): ReadonlyArray<EventChange> => {
  const at = new Date()
  const records = Array.from({ length: n }, (_, i) => observation(STATES[(serial + i) % STATES.length]))
  return diffPoll({ source: "bench-wh", polledAt: at, now: at, records, presentIds: [], prev: new Map() }).changes
}

const main = async () => {
  console.log(
    `webhook benchmark on ${process.arch}, node ${process.version}: ${SUBS} subscriptions, ${PER_STATE} per state, concurrency ${CONCURRENCY}`
  )
  const receiver = fork("-", [], { stdio: ["pipe", "inherit", "inherit", "ipc"], execArgv: [] })
  receiver.stdin!.end(RECEIVER)
  const received = new Map<string, Array<number>>()
  let receivedCount = 0
  const port = await new Promise<number>((resolve) =>
    receiver.on("message", (m: { port?: number; t?: number; id?: string }) => {
      if (m.port) return resolve(m.port)
      receivedCount++
      const list = received.get(m.id!) ?? []
      list.push(m.t!)
      received.set(m.id!, list)
    })
  )

  const world = scratch("webhooks", { webhookAllowPrivateTargets: true, webhookConcurrency: CONCURRENCY })
  const prefix = world.prefix
  const base = baseLayer(world.config, seedReferenceData).pipe(
    Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning))
  )
  const setup = ManagedRuntime.make(PipelineServices.pipe(Layer.provideMerge(base)))
  let stage: ManagedRuntime.ManagedRuntime<never, unknown> | undefined
  try {
    const emitted = new Map<string, number>()
    await setup.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* createKey({ plan: "enterprise", email: "bench@example.com" })
        const [{ id }] = yield* sql<{ id: number }>`SELECT id FROM customers WHERE email = 'bench@example.com'`
        for (let i = 0; i < SUBS; i++) {
          yield* createSubscription(id, {
            url: `http://127.0.0.1:${port}/s${i}`,
            jurisdiction: [STATES[i % STATES.length]]
          })
        }
        const streams = yield* MaterializedStream
        yield* streams.ensureGroup(WEBHOOKS_GROUP, "$")
      })
    )
    const xadd = (cs: ReadonlyArray<EventChange>) =>
      setup.runPromise(
        Effect.gen(function* () {
          const streams = yield* MaterializedStream
          const redis = yield* Redis
          yield* redis.use("xadd", async (c) => {
            const m = c.multi()
            for (const ch of cs) m.xAdd(streams.streamKey, "*", { c: JSON.stringify(ch) })
            await m.exec()
          })
          const at = Date.now()
          for (const ch of cs) emitted.set(ch.event_id, at)
        })
      )

    // 1. drain a backlog: the stage starts with BACKLOG changes (× PER_STATE deliveries) waiting
    for (let i = 0; i < BACKLOG; i += 500) await xadd(creations(Math.min(500, BACKLOG - i)))
    const expected = BACKLOG * PER_STATE
    const t0 = performance.now()
    stage = ManagedRuntime.make(
      WebhooksLive("bench").pipe(Layer.provideMerge(PipelineServices), Layer.provideMerge(base))
    )
    await stage.runtime()
    while (receivedCount < expected) {
      await new Promise((r) => setTimeout(r, 20))
      if (performance.now() - t0 > 600_000) throw new Error(`drain stalled at ${receivedCount}/${expected}`)
    }
    const drainS = (performance.now() - t0) / 1000
    console.log(
      `drain               ${fmt(expected / drainS)} deliveries/s (${fmt(expected)} deliveries of ${fmt(BACKLOG)} changes in ${drainS.toFixed(2)} s, stage start included)`
    )

    // 2. latency at an offered rate
    received.clear()
    emitted.clear()
    const changesPerSecond = RATE / PER_STATE
    const start = performance.now()
    let sent = 0
    const total = Math.round(changesPerSecond * SECONDS)
    const before = receivedCount
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * changesPerSecond) + 1)
      if (due > sent) {
        await xadd(creations(due - sent))
        sent = due
      }
      await new Promise((r) => setTimeout(r, 20))
    }
    while (receivedCount - before < total * PER_STATE) {
      await new Promise((r) => setTimeout(r, 20))
      if (performance.now() - start > 600_000) throw new Error("latency phase stalled")
    }
    const span = (performance.now() - start) / 1000
    const lat: Array<number> = []
    for (const [id, times] of received) {
      const e = emitted.get(id)
      if (e !== undefined) for (const t of times) lat.push(t - e)
    }
    console.log(
      `latency at ${fmt(RATE)}/s    p50 ${pct(lat, 50)} ms, p99 ${pct(lat, 99)} ms, max ${Math.max(...lat)} ms over ${fmt(lat.length)} deliveries (${SECONDS} s offered, ${fmt(lat.length / span)} deliveries/s achieved)`
    )
    // attempts are recorded in batches just after the receiver answers: give the last batch a moment
    const notSucceeded = () =>
      setup
        .runPromise(
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) =>
              sql<{
                n: number
                total: number
              }>`SELECT (count(*) FILTER (WHERE status <> 'succeeded'))::int AS n, count(*)::int AS total FROM webhook_deliveries`
          )
        )
        .then((r) => r[0])
    let state = await notSucceeded()
    for (let i = 0; i < 100 && state.n > 0; i++) {
      await new Promise((r) => setTimeout(r, 100))
      state = await notSucceeded()
    }
    console.log(
      `recorded            ${fmt(state.total - state.n)} of ${fmt(state.total)} deliveries succeeded in Postgres`
    )
  } finally {
    await stage?.dispose()
    await setup
      .runPromise(
        Effect.flatMap(Redis, (r) =>
          r.use("keys", async (c) => {
            const keys = await c.keys(`${prefix}:*`)
            if (keys.length > 0) await c.del(keys)
          })
        )
      )
      .catch(() => undefined)
    await setup.dispose()
    receiver.kill()
    await world.drop()
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  }
)
