import { SqlClient } from "@effect/sql"
import { layer } from "@effect/vitest"
import { Clock, Duration, Effect, Layer, TestClock, TestServices } from "effect"
import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, expect } from "vitest"
import { RedisStreams } from "../../../shared/bus/RedisStreams.js"
import { PipelineServices } from "../../../pipeline/PipelineLive.js"
import { commitChunks, COMMIT_CHUNK, SnapshotStore } from "../../../pipeline/diff/SnapshotStore.js"
import { diffPoll } from "../../../pipeline/diff/Differ.js"
import { leaseKey } from "../../../pipeline/poll/Lease.js"
import { pollOnce, PollerLive } from "../../../pipeline/poll/Poller.js"
import { firstPollOffsetMs, nextPollAtMs } from "../../../pipeline/poll/pollOffset.js"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { registerSources } from "../../../pipeline/poll/PollRecorder.js"
import { SourceCatalogue, type SourceConfig } from "../../../pipeline/poll/SourceCatalogue.js"
import { sweepOrphans } from "../../../pipeline/stages/sweep/OrphanSweeper.js"
import { ibi511 } from "../../../pipeline/sources/ibi511.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { decodeChange } from "../../../shared/domain/Change.js"
import { Redis } from "../../../shared/db/Redis.js"
import { makeTestEnv } from "../../support/harness.js"

/** A scriptable upstream: the test sets what the next poll gets. */
let answer: { status: number; body: unknown; etag?: string; lastModified?: string; delayMs?: number } = {
  status: 200,
  body: []
}
let requests: Array<Record<string, string | string[] | undefined>> = []
let server: Server
let url = ""
const env = makeTestEnv({ sweepFactor: 15 })

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.headers)
    const a = answer
    setTimeout(() => {
      if (
        (a.etag && req.headers["if-none-match"] === a.etag) ||
        (a.lastModified && req.headers["if-modified-since"] === a.lastModified)
      ) {
        res.writeHead(304)
        return res.end()
      }
      res.writeHead(a.status, {
        "content-type": "application/json",
        ...(a.etag ? { etag: a.etag } : {}),
        ...(a.lastModified ? { "last-modified": a.lastModified } : {})
      })
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
  await env.cleanup()
})

const rec = (id: string, severity = "Minor") => ({
  ID: id,
  RoadwayName: "I-90",
  Latitude: 42.65,
  Longitude: -73.75,
  EventType: "roadwork",
  EventSubType: "Paving",
  Severity: severity,
  StartDate: 1793548800
})

const source = (id: string, over: Partial<SourceConfig> = {}): SourceConfig => ({
  id,
  adapter: "ibi511",
  url,
  jurisdiction: "NY",
  poll_interval_s: 60,
  timeout_ms: 2000,
  headers: {},
  ...over
})

/** Polls the upstream has answered so far. */
const polled = () => requests.length
/** Real time for the polls the test clock let go to arrive (at least `n` of them). */
const settle = (n: number) =>
  TestServices.provideLive(
    Effect.gen(function* () {
      for (let i = 0; i < 100 && polled() < n; i++) yield* Effect.sleep(Duration.millis(50))
      yield* Effect.sleep(Duration.millis(200))
    })
  )
/** Real time in which a poll the clock did not let go would have arrived. */
const quiet = TestServices.provideLive(Effect.sleep(Duration.millis(300)))

/** One poll as if the interval had passed: the lease of the previous poll is released first. */
const poll = (s: SourceConfig, token = "t1") =>
  Effect.gen(function* () {
    const redis = yield* Redis
    yield* redis.use("del", (c) => c.del(leaseKey(redis, s.id)))
    return yield* pollOnce(s, ibi511, token)
  })

const polls = (s: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{
      outcome: string
      record_count: number
      rejected_count: number
      change_count: number
      error: string | null
      latency_ms: number
    }>`
    SELECT outcome, record_count, rejected_count, change_count, error, latency_ms FROM source_polls WHERE source = ${s} ORDER BY id`
  )

const streamChanges = (sourceId: string) =>
  Effect.gen(function* () {
    const streams = yield* RedisStreams
    const redis = yield* Redis
    const all = yield* redis.use("xrange", (c) => c.xRange(streams.streamKey, "-", "+"))
    return all
      .map((m) => decodeChange(m.message.c))
      .flatMap((e) => (e._tag === "Right" && e.right.kind === "event" ? [e.right] : []))
      .filter((c) => c.source === sourceId)
  })

layer(PipelineServices.pipe(Layer.provideMerge(env.layer)))("poller", (it) => {
  it.effect("records ok, not_modified via ETag, empty and error outcomes with counts and latency", () =>
    Effect.gen(function* () {
      const s = source("p-outcomes")
      const rows = yield* Effect.gen(function* () {
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
        // real time for this one: it proves the fetch timeout fires
        yield* TestServices.provideLive(poll({ ...s, timeout_ms: 100 }))
        return yield* polls(s.id)
      })
      expect(requests[0]["if-none-match"]).toBe('"v1"')
      expect(rows.map((r) => r.outcome)).toEqual(["ok", "not_modified", "empty", "error", "error", "error"])
      expect(rows[0]).toMatchObject({ record_count: 2, rejected_count: 1, change_count: 2 })
      expect(rows[3].error).toMatch(/HTTP 500/)
      expect(rows[4].error).toMatch(/neither JSON nor XML/)
      expect(rows[5].error).toMatch(/timed out after 100 ms/)
      const quarantined = yield* Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ reason: string }>`SELECT reason FROM quarantine WHERE source = ${s.id}`
      )
      expect(quarantined).toHaveLength(1)
      expect(quarantined[0].reason).toMatch(/Latitude/)
    })
  )

  it.effect(
    "keeps every refused record's kind with a count, commonest first, so a drifting field reads as one reason",
    () =>
      Effect.gen(function* () {
        const s = source("p-reasons")
        yield* registerSources([s], () => null)
        answer = {
          status: 200,
          body: [
            rec("ok1"),
            { ID: "b1", Latitude: "x" },
            { ID: "b2", Latitude: "y" },
            { ID: "b3", Latitude: "z" },
            rec("dup"),
            rec("dup")
          ]
        }
        yield* poll(s)
        const [row] = yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{
              rejected_count: number
              rejected_reasons: Array<{ reason: string; count: number; example: string }>
            }>`
        SELECT rejected_count, rejected_reasons FROM source_polls WHERE source = ${s.id}`
        )
        expect(row.rejected_count).toBe(4)
        expect(row.rejected_reasons.map((r) => r.count)).toEqual([3, 1])
        expect(row.rejected_reasons[0].reason).toMatch(/Latitude/)
        expect(row.rejected_reasons[0].reason).not.toMatch(/"x"|"y"|"z"/)
        expect(row.rejected_reasons[1]).toEqual({
          reason: "duplicate upstream id in one payload",
          count: 1,
          example: "duplicate upstream id dup in one payload"
        })
      })
  )

  it.effect("sends If-Modified-Since after a Last-Modified answer and records not_modified", () =>
    Effect.gen(function* () {
      const s = source("p-lastmod")
      answer = { status: 200, body: [rec("m1")], lastModified: "Sun, 01 Nov 2026 12:00:00 GMT" }
      yield* poll(s)
      requests = []
      yield* poll(s)
      expect(requests[0]["if-modified-since"]).toBe("Sun, 01 Nov 2026 12:00:00 GMT")
      expect((yield* polls(s.id)).map((r) => r.outcome)).toEqual(["ok", "not_modified"])
    })
  )

  it.effect("moves last_updated only when published content changes by value", () =>
    Effect.gen(function* () {
      const s = source("p-lastupdated")
      const sql = yield* SqlClient.SqlClient
      const lastUpdated = Effect.map(
        sql<{ last_updated: string }>`SELECT last_updated FROM events WHERE source = ${s.id}`,
        (r) => r[0].last_updated
      )
      const materialize = Effect.flatMap(streamChanges(s.id), applyChanges)
      yield* TestClock.setTime(Date.UTC(2026, 10, 2))
      answer = { status: 200, body: [rec("u1")] }
      yield* poll(s)
      yield* materialize
      const first = yield* lastUpdated
      // the same content again, once byte-identical and once with keys in another order
      yield* TestClock.adjust("1 minute")
      yield* poll(s)
      const { ID, ...rest } = rec("u1")
      answer = { status: 200, body: [{ ...rest, ID }] }
      yield* TestClock.adjust("1 minute")
      yield* poll(s)
      yield* materialize
      expect(yield* lastUpdated).toBe(first)
      // a new description is a content change
      answer = { status: 200, body: [{ ...rec("u1"), Description: "now with detail" }] }
      yield* TestClock.adjust("1 minute")
      yield* poll(s)
      yield* materialize
      expect(Date.parse(yield* lastUpdated) - Date.parse(first)).toBe(3 * 60_000)
    })
  )

  it.effect("opens the circuit after 5 failed polls and stops calling the upstream", () =>
    Effect.gen(function* () {
      const s = source("p-circuit")
      answer = { status: 503, body: "down" }
      requests = []
      for (let i = 0; i < 7; i++) yield* poll(s)
      const outcomes = yield* polls(s.id)
      expect(requests).toHaveLength(5)
      expect(outcomes.slice(5).map((r) => r.error)).toEqual([
        "circuit open: poll skipped",
        "circuit open: poll skipped"
      ])
      // after the cooldown (max(4 × 60 s, 5 s)) one poll goes through again
      yield* TestClock.adjust("241 seconds")
      yield* poll(s)
      expect(requests).toHaveLength(6)
    })
  )

  it.effect("lets only one of two pollers hold a source's lease", () =>
    Effect.gen(function* () {
      const s = source("p-lease")
      answer = { status: 200, body: [rec("a")], delayMs: 200 }
      const redis = yield* Redis
      yield* redis.use("del", (c) => c.del(leaseKey(redis, s.id)))
      const [a, b] = yield* Effect.all([pollOnce(s, ibi511, "proc-a"), pollOnce(s, ibi511, "proc-b")], {
        concurrency: 2
      })
      expect([a, b].sort()).toEqual(["leased-elsewhere", "ok"])
    })
  )

  it.effect("archives by stale sweep only after interval × 15 without a fresh observation", () =>
    Effect.gen(function* () {
      const s = source("p-sweep", { poll_interval_s: 10 })
      const changes = yield* Effect.gen(function* () {
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
      })
      expect(changes.before).toBe(0)
      const archived = changes.after.filter((c) => c.op === "archived")
      expect(archived.map((c) => [c.source_id, c.archive_reason]).sort()).toEqual([
        ["s1", "stale_sweep"],
        ["s2", "stale_sweep"]
      ])
    })
  )

  it.effect("sweeps the stale events of a source no longer in the catalogue", () =>
    Effect.gen(function* () {
      const s = source("p-orphan", { poll_interval_s: 10 })
      yield* TestClock.setTime(Date.UTC(2026, 10, 3))
      yield* registerSources([s], () => null)
      answer = { status: 200, body: [rec("o1")] }
      yield* poll(s)
      const catalogue = Layer.succeed(SourceCatalogue, [source("p-other")])
      expect(yield* Effect.provide(sweepOrphans, catalogue)).toBe(0)
      yield* TestClock.adjust("151 seconds")
      const redis = yield* Redis
      yield* redis.use("del", (c) => c.del(leaseKey(redis, s.id))) // Redis's own clock: the lease has expired by now
      expect(yield* Effect.provide(sweepOrphans, catalogue)).toBe(1)
      const archived = (yield* streamChanges(s.id)).filter((c) => c.op === "archived")
      expect(archived.map((c) => [c.source_id, c.archive_reason])).toEqual([["o1", "stale_sweep"]])
      // a catalogued source is left to its poller
      yield* TestClock.adjust("1 hour")
      expect(yield* Effect.provide(sweepOrphans, Layer.succeed(SourceCatalogue, [s]))).toBe(0)
    })
  )

  it.effect("rebuilds a lost snapshot from Postgres instead of announcing every event as new", () =>
    Effect.gen(function* () {
      const s = source("p-rebuild")
      const result = yield* Effect.gen(function* () {
        const redis = yield* Redis
        const streams = yield* RedisStreams
        answer = { status: 200, body: [rec("r1"), rec("r2")] }
        yield* poll(s)
        // materialize what the stream holds, as the materializer stage would
        yield* applyChanges(yield* streamChanges(s.id))
        // Redis restarts without persistence: snapshot and stream are gone
        const keys = yield* redis.use("keys", (c) => c.keys(`${redis.prefix}:snap:${s.id}*`))
        yield* redis.use("del", (c) => c.del([...keys, streams.streamKey]))
        answer = { status: 200, body: [rec("r1", "Major"), rec("r2")] }
        yield* poll(s)
        return yield* streamChanges(s.id)
      })
      expect(result.map((c) => [c.source_id, c.op, c.fields.map((f) => f.change_type)])).toEqual([
        ["r1", "updated", ["severity_change"]]
      ])
    })
  )

  it.effect("reads snapshot entries through their Schema: a malformed one sends the source back to Postgres", () =>
    Effect.gen(function* () {
      const s = source("p-malformed")
      const result = yield* Effect.gen(function* () {
        const redis = yield* Redis
        const streams = yield* RedisStreams
        answer = { status: 200, body: [rec("m1"), rec("m2")] }
        yield* poll(s)
        yield* applyChanges(yield* streamChanges(s.id))
        yield* redis.use("del stream", (c) => c.del(streams.streamKey))
        // a foreign writer leaves garbage in one entry, and a stray entry for a record that never existed
        yield* redis.use("corrupt", (c) =>
          c.hSet(`${redis.prefix}:snap:${s.id}`, { m1: '{"v":"not a number"}', ghost: "{oops" })
        )
        answer = { status: 200, body: [rec("m1", "Major"), rec("m2")] }
        yield* poll(s)
        const snap = yield* redis.use("snap", (c) => c.hKeys(`${redis.prefix}:snap:${s.id}`))
        return { changes: yield* streamChanges(s.id), snap: snap.sort() }
      })
      // rebuilt from Postgres: m1 is an update, not a second creation; the stray entry is gone
      expect(result.changes.map((c) => [c.source_id, c.op])).toEqual([["m1", "updated"]])
      expect(result.snap).toEqual(["m1", "m2"])
    })
  )

  it.effect("finishes a poll commit cut short after its first chunk on the next poll, announcing nothing twice", () =>
    Effect.gen(function* () {
      const s = source("p-chunks")
      const n = COMMIT_CHUNK * 2 + 500
      const body = Array.from({ length: n }, (_, i) => rec(`c${i}`))
      const result = yield* Effect.gen(function* () {
        const redis = yield* Redis
        const store = yield* SnapshotStore
        const polledAt = new Date(yield* Clock.currentTimeMillis)
        const decoded = ibi511.decode(body, { source: s.id, jurisdiction: "NY", polledAt })
        if (decoded._tag === "Left") throw new Error(decoded.left)
        const delta = diffPoll({
          source: s.id,
          polledAt,
          now: polledAt,
          records: decoded.right.records,
          presentIds: [],
          prev: new Map()
        })
        // the process dies after the first chunk's EXEC: that chunk is whole, the rest never happened
        const [first] = commitChunks(delta, COMMIT_CHUNK)
        yield* store.commit(s.id, first, null)
        const afterCut = (yield* streamChanges(s.id)).length
        yield* TestClock.adjust("1 minute")
        answer = { status: 200, body }
        yield* poll(s)
        const snap = yield* redis.use("hlen", (c) => c.hLen(`${redis.prefix}:snap:${s.id}`))
        return { afterCut, changes: yield* streamChanges(s.id), snap }
      })
      expect(result.afterCut).toBe(COMMIT_CHUNK)
      expect(result.changes.filter((c) => c.op === "created")).toHaveLength(n)
      expect(new Set(result.changes.map((c) => c.event_id)).size).toBe(n)
      expect(result.changes.every((c) => c.op === "created")).toBe(true)
      expect(result.snap).toBe(n)
      const last = yield* polls(s.id)
      expect(last.at(-1)).toMatchObject({ outcome: "ok", change_count: n - COMMIT_CHUNK })
    })
  )

  it.scoped("spreads the first polls over POLL_SPREAD_S: no source polls before its offset, each at it", () =>
    Effect.gen(function* () {
      // two sources whose offsets in a 60 s spread are apart (7.9 s and 37.1 s)
      const ids = ["p-spread-b", "p-spread-c"]
      const offsets = ids.map((id) => firstPollOffsetMs(id, 60_000))
      const urlOf = (id: string) => `${url}?source=${id}`
      answer = { status: 200, body: [rec("s1")] }
      requests = []
      const config = yield* AppConfig
      yield* Effect.forkScoped(
        Layer.launch(PollerLive).pipe(
          Effect.provide(SourceCatalogue.fromList(ids.map((id) => source(id, { url: urlOf(id) })))),
          Effect.provideService(AppConfig, { ...config, pollSpreadS: 60 })
        )
      )
      yield* quiet
      expect(polled(), "nothing polls at start").toBe(0)
      yield* TestClock.adjust(Duration.millis(offsets[0] - 50))
      yield* quiet
      expect(polled(), "nor just before the first offset").toBe(0)
      yield* TestClock.adjust(Duration.millis(100))
      yield* settle(1)
      expect(polled()).toBe(1)
      yield* TestClock.adjust(Duration.millis(offsets[1] - offsets[0] - 100))
      yield* quiet
      expect(polled(), "the second waits for its own offset").toBe(1)
      yield* TestClock.adjust(Duration.millis(100))
      yield* settle(2)
      expect(polled()).toBe(2)
    })
  )

  it.scoped(
    "polls again on the source's own phase of its interval, not an interval after the last poll (POLL_ON_PHASE)",
    () =>
      Effect.gen(function* () {
        const id = "p-phase-b"
        const next = nextPollAtMs(id, 60_000, 0)
        // the TestClock starts at 0: the first poll at once, the next on its phase, past the minute
        expect(next).toBeGreaterThan(61_000)
        answer = { status: 200, body: [rec("s1")] }
        requests = []
        const config = yield* AppConfig
        yield* Effect.forkScoped(
          Layer.launch(PollerLive).pipe(
            Effect.provide(SourceCatalogue.fromList([source(id, { url: `${url}?source=${id}` })])),
            Effect.provideService(AppConfig, { ...config, pollSpreadS: 0, pollOnPhase: true })
          )
        )
        yield* settle(1)
        expect(polled(), "the first poll at start").toBe(1)
        // the lease lives in Redis on real time: released as its term would have run out
        const redis = yield* Redis
        const release = redis.use("del", (c) => c.del(leaseKey(redis, id)))
        yield* release
        yield* TestClock.adjust(Duration.millis(60_500))
        yield* quiet
        expect(polled(), "not an interval after the first").toBe(1)
        yield* TestClock.adjust(Duration.millis(next - 60_500 + 100))
        yield* settle(2)
        expect(polled(), "on its phase").toBe(2)
        yield* release
        yield* TestClock.adjust(Duration.millis(60_000))
        yield* settle(3)
        expect(polled(), "and a full interval later again").toBe(3)
      })
  )
})
