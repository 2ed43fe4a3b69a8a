import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, TestClock, TestContext } from "effect"
import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RedisStreams } from "../../pipeline/bus/RedisStreams.js"
import { PipelineServices } from "../../pipeline/PipelineLive.js"
import { leaseKey } from "../../pipeline/poll/Lease.js"
import { pollOnce } from "../../pipeline/poll/Poller.js"
import { registerSources } from "../../pipeline/poll/PollRecorder.js"
import type { SourceConfig } from "../../pipeline/poll/SourceCatalogue.js"
import { ibi511 } from "../../pipeline/sources/ibi511.js"
import { decodeChange } from "../../shared/domain/Change.js"
import { Redis } from "../../shared/db/Redis.js"
import { makeTestEnv } from "../support/harness.js"

/** A scriptable upstream: the test sets what the next poll gets. */
let answer: { status: number; body: unknown; etag?: string; delayMs?: number } = { status: 200, body: [] }
let requests: Array<Record<string, string | string[] | undefined>> = []
let server: Server
let url = ""
const env = makeTestEnv({ sweepFactor: 15 })
const rt = ManagedRuntime.make(PipelineServices.pipe(Layer.provideMerge(env.layer)))

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.headers)
    const a = answer
    setTimeout(() => {
      if (a.etag && req.headers["if-none-match"] === a.etag) {
        res.writeHead(304)
        return res.end()
      }
      res.writeHead(a.status, { "content-type": "application/json", ...(a.etag ? { etag: a.etag } : {}) })
      res.end(typeof a.body === "string" ? a.body : JSON.stringify(a.body))
    }, a.delayMs ?? 0)
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const addr = server.address()
  url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/events`
})
afterAll(async () => {
  server.closeAllConnections()
  server.close()
  await rt.dispose()
  await env.cleanup()
})

const rec = (id: string, severity = "Minor") => ({
  ID: id, RoadwayName: "I-90", Latitude: 42.65, Longitude: -73.75, EventType: "roadwork", EventSubType: "Paving", Severity: severity, StartDate: 1793548800
})

const source = (id: string, over: Partial<SourceConfig> = {}): SourceConfig => ({
  id, adapter: "ibi511", url, jurisdiction: "NY", poll_interval_s: 60, timeout_ms: 2000, headers: {}, ...over
})

/** One poll as if the interval had passed: the lease of the previous poll is released first. */
const poll = (s: SourceConfig, token = "t1") =>
  Effect.gen(function* () {
    const redis = yield* Redis
    yield* redis.use("del", (c) => c.del(leaseKey(redis, s.id)))
    return yield* pollOnce(s, ibi511, token)
  })

const polls = (s: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ outcome: string; record_count: number; rejected_count: number; change_count: number; error: string | null; latency_ms: number }>`
    SELECT outcome, record_count, rejected_count, change_count, error, latency_ms FROM source_polls WHERE source = ${s} ORDER BY id`)

const streamChanges = (sourceId: string) =>
  Effect.gen(function* () {
    const streams = yield* RedisStreams
    const redis = yield* Redis
    const all = yield* redis.use("xrange", (c) => c.xRange(streams.streamKey, "-", "+"))
    return all.map((m) => decodeChange(m.message.c)).flatMap((e) => (e._tag === "Right" ? [e.right] : [])).filter((c) => c.source === sourceId)
  })

describe("poller", () => {
  it("records ok, not_modified via ETag, empty and error outcomes with counts and latency", async () => {
    const s = source("p-outcomes")
    const rows = await rt.runPromise(Effect.gen(function* () {
      yield* registerSources([s], () => null)
      answer = { status: 200, body: [rec("a"), rec("b"), { ID: "bad", Latitude: "x" }], etag: '"v1"' }
      yield* poll(s)
      requests = []
      yield* poll(s)
      answer = { status: 200, body: [] }
      yield* poll(s)
      answer = { status: 500, body: "oops" }
      yield* poll(s)
      answer = { status: 200, body: "{not json" }
      yield* poll(s)
      answer = { status: 200, body: [rec("a")], delayMs: 400 }
      yield* poll({ ...s, timeout_ms: 100 })
      return yield* polls(s.id)
    }))
    expect(requests[0]["if-none-match"]).toBe('"v1"')
    expect(rows.map((r) => r.outcome)).toEqual(["ok", "not_modified", "empty", "error", "error", "error"])
    expect(rows[0]).toMatchObject({ record_count: 2, rejected_count: 1, change_count: 2 })
    expect(rows[3].error).toMatch(/HTTP 500/)
    expect(rows[4].error).toMatch(/not JSON/)
    expect(rows[5].error).toMatch(/timed out after 100 ms/)
    const quarantined = await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ reason: string }>`SELECT reason FROM quarantine WHERE source = ${s.id}`))
    expect(quarantined).toHaveLength(1)
    expect(quarantined[0].reason).toMatch(/Latitude/)
  })

  it("opens the circuit after 5 failed polls and stops calling the upstream", async () => {
    const s = source("p-circuit")
    const outcomes = await rt.runPromise(Effect.gen(function* () {
      answer = { status: 503, body: "down" }
      requests = []
      for (let i = 0; i < 7; i++) yield* poll(s)
      return yield* polls(s.id)
    }))
    expect(requests).toHaveLength(5)
    expect(outcomes.slice(5).map((r) => r.error)).toEqual(["circuit open: poll skipped", "circuit open: poll skipped"])
  })

  it("lets only one of two pollers hold a source's lease", async () => {
    const s = source("p-lease")
    answer = { status: 200, body: [rec("a")], delayMs: 200 }
    const [a, b] = await rt.runPromise(Effect.gen(function* () {
      const redis = yield* Redis
      yield* redis.use("del", (c) => c.del(leaseKey(redis, s.id)))
      return yield* Effect.all([pollOnce(s, ibi511, "proc-a"), pollOnce(s, ibi511, "proc-b")], { concurrency: 2 })
    }))
    expect([a, b].sort()).toEqual(["leased-elsewhere", "ok"])
  })

  it("archives by stale sweep only after interval × 15 without a fresh observation", async () => {
    const s = source("p-sweep", { poll_interval_s: 10 })
    const changes = await rt.runPromise(Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 10, 1))
      answer = { status: 200, body: [rec("s1"), rec("s2")] }
      yield* poll(s)
      answer = { status: 503, body: "down" }
      yield* TestClock.adjust("149 seconds")
      yield* poll(s)
      const before = (yield* streamChanges(s.id)).filter((c) => c.op === "archived").length
      yield* TestClock.adjust("2 seconds")
      answer = { status: 200, body: [] } // an empty answer retires nothing either; the sweep does
      yield* poll(s)
      return { before, after: yield* streamChanges(s.id) }
    }).pipe(Effect.provide(TestContext.TestContext)))
    expect(changes.before).toBe(0)
    const archived = changes.after.filter((c) => c.op === "archived")
    expect(archived.map((c) => [c.source_id, c.archive_reason]).sort()).toEqual([["s1", "stale_sweep"], ["s2", "stale_sweep"]])
  })

  it("rebuilds a lost snapshot from Postgres instead of announcing every event as new", async () => {
    const s = source("p-rebuild")
    const result = await rt.runPromise(Effect.gen(function* () {
      const redis = yield* Redis
      const streams = yield* RedisStreams
      answer = { status: 200, body: [rec("r1"), rec("r2")] }
      yield* poll(s)
      // materialize what the stream holds, as the materializer stage would
      const { applyChanges } = yield* Effect.promise(() => import("../../pipeline/stages/materialize/applyChanges.js"))
      yield* applyChanges(yield* streamChanges(s.id))
      // Redis restarts without persistence: snapshot and stream are gone
      const keys = yield* redis.use("keys", (c) => c.keys(`${redis.prefix}:snap:${s.id}*`))
      yield* redis.use("del", (c) => c.del([...keys, streams.streamKey]))
      answer = { status: 200, body: [rec("r1", "Major"), rec("r2")] }
      yield* poll(s)
      return yield* streamChanges(s.id)
    }))
    expect(result.map((c) => [c.source_id, c.op, c.fields.map((f) => f.change_type)])).toEqual([["r1", "updated", ["severity_change"]]])
  })
})
