import { SqlClient } from "@effect/sql"
import { Deferred, Effect, Fiber, Layer, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { MaterializedStream, RedisStreams } from "../../../shared/bus/RedisStreams.js"
import { PipelineServices } from "../../../pipeline/PipelineLive.js"
import { type ConsumerOptions, runConsumer } from "../../../pipeline/stages/ConsumerLoop.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { runMaterializer } from "../../../pipeline/stages/materialize/Materializer.js"
import { Redis } from "../../../shared/db/Redis.js"
import type { Change, EventChange } from "../../../shared/domain/Change.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { groupDrained, publish, waitUntil } from "../../support/stream.js"

const env = makeTestEnv()
const rt = ManagedRuntime.make(PipelineServices.pipe(Layer.provideMerge(env.layer)))
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const tables = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`SELECT id, source_id, severity, status, archive_reason, version, lanes_affected, end_time, last_updated, created_at, archived_at FROM events ORDER BY id`,
    sql`SELECT change_id, event_id, change_type, old_value, new_value, changed_at FROM event_history ORDER BY change_id, change_type`
  ])
)

/** Empty tables and a fresh stream, so each test's groups see only its own messages. */
const reset = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const redis = yield* Redis
  const streams = yield* RedisStreams
  yield* sql`TRUNCATE events, event_history`
  yield* redis.use("del", (r) => r.del([streams.streamKey, streams.dlqKey]))
})

/** A script with creations, severity/lanes/end-time changes, an archive and a come-back. */
const script = (source: string, n: number) => {
  const first = Array.from({ length: n }, (_, i) => observation(`${source}-${i}`))
  const second = first.map((o, i) =>
    i % 3 === 0 ? { ...o, severity: "major" as const, lanes_affected: "2 lanes" } : o
  )
  const third = second
    .filter((_, i) => i % 5 !== 0)
    .map((o, i) => (i % 4 === 0 ? { ...o, end_time: "2026-12-01T00:00:00.000Z" } : o))
  return changeScript(source, [first, second, third, second])
}

const expectedHistoryRows = (changes: ReadonlyArray<EventChange>) => changes.reduce((n, c) => n + c.fields.length, 0)

const options = (group: string, consumer: string, over: Partial<ConsumerOptions> = {}): ConsumerOptions => ({
  group,
  consumer,
  batchSize: 50,
  blockMs: 100,
  claimIdleMs: 300,
  maxDeliveries: 3,
  ...over
})

describe("materializer", () => {
  it("gives the same rows when the same messages are applied twice", async () => {
    const changes = script("twice", 40)
    const [once, twice] = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        yield* applyChanges(changes)
        const a = yield* tables
        yield* applyChanges(changes)
        // and once more in reverse order and one by one: versions keep the newest
        for (const c of [...changes].reverse()) yield* applyChanges([c])
        return [a, yield* tables] as const
      })
    )
    expect(twice).toEqual(once)
    expect(once[1]).toHaveLength(expectedHistoryRows(changes))
    const types = new Set(once[1].map((r) => r.change_type))
    expect([...types].sort()).toEqual([
      "archived",
      "created",
      "end_time_change",
      "lanes_change",
      "severity_change",
      "status_change"
    ])
  })

  it("stores every column as written: several roads, their keys, geometry, metadata, text with quotes, braces and backslashes", async () => {
    const tricky = observation("cols-1", {
      affected_roads: ["I-87", "US 9", 'Route "9W" {north}'],
      title: 'Closed: \\ back, {brace}, "quote", comma, \' apostrophe',
      geometry: {
        type: "LineString",
        coordinates: [
          [-73.99, 40.75],
          [-73.98, 40.76]
        ]
      },
      metadata: { a: [1, "x"], b: null },
      end_time: "2026-12-01T00:00:00.000Z",
      lanes_affected: null
    })
    const [row] = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        yield* applyChanges(changeScript("cols", [[tricky]]))
        const sql = yield* SqlClient.SqlClient
        return yield* sql<
          Record<string, unknown>
        >`SELECT affected_roads, road_keys, title, geometry, metadata, end_time, lanes_affected, road_class FROM events`
      })
    )
    expect(row).toMatchObject({
      affected_roads: ["I-87", "US 9", 'Route "9W" {north}'],
      road_keys: ["I-87", "US-9", "ROUTE 9W NORTH"],
      title: tricky.title,
      geometry: tricky.geometry,
      metadata: tricky.metadata,
      lanes_affected: null,
      road_class: "interstate"
    })
    expect(new Date(row.end_time as string).toISOString()).toBe("2026-12-01T00:00:00.000Z")
  })

  it("reaches the same state whatever order the messages arrive in", async () => {
    const changes = script("order", 60)
    let seed = 42
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const [direct, shuffled] = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        yield* applyChanges(changes)
        const a = yield* tables
        yield* reset
        const order = [...changes].sort(() => random() - 0.5)
        for (let i = 0; i < order.length;) {
          const n = 1 + Math.floor(random() * 20)
          yield* applyChanges(order.slice(i, i + n))
          i += n
        }
        return [a, yield* tables] as const
      })
    )
    expect(shuffled).toEqual(direct)
  })

  it("materializes every change exactly once after the consumer is killed mid-batch", async () => {
    const changes = script("killed", 300)
    const group = "materialize-kill"
    const result = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        const streams = yield* RedisStreams
        yield* streams.ensureGroup(group)
        yield* publish(changes)
        // consumer A commits its second batch to Postgres, then dies before XACK
        const died = yield* Deferred.make<void>()
        let batches = 0
        const crashing = (cs: ReadonlyArray<Change>) =>
          Effect.gen(function* () {
            yield* applyChanges(cs)
            batches += 1
            if (batches === 2) {
              yield* Deferred.succeed(died, undefined)
              return yield* Effect.never // killed here: the batch is in Postgres, not acked
            }
          })
        const a = yield* Effect.fork(runConsumer(options(group, "consumer-a"), crashing))
        yield* Deferred.await(died)
        yield* Fiber.interrupt(a)
        const pendingAfterKill = (yield* streams.groups).find((g) => g.group === group)!.pending
        // consumer B reclaims A's pending batch with XAUTOCLAIM and finishes the stream
        const b = yield* Effect.fork(runConsumer(options(group, "consumer-b"), applyChanges))
        yield* waitUntil(groupDrained(group))
        yield* Fiber.interrupt(b)
        return { pendingAfterKill, rows: yield* tables }
      })
    )
    // the killed consumer left its applied-but-unacked batch (and the batch it had read ahead) pending
    expect(result.pendingAfterKill).toBeGreaterThanOrEqual(50)
    const [events, history] = result.rows
    expect(history).toHaveLength(expectedHistoryRows(changes))
    expect(new Set(history.map((h) => `${h.change_id}/${h.change_type}`)).size).toBe(history.length)
    expect(events).toHaveLength(300)
    // the state equals a straight, single application of the script
    const direct = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        yield* applyChanges(changes)
        return yield* tables
      })
    )
    expect(result.rows).toEqual(direct)
  })

  it("reaches the same state with several batches written at once (MATERIALIZE_IN_FLIGHT)", async () => {
    const changes = script("inflight", 120)
    const group = "materialize-inflight"
    const [direct, parallel] = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        yield* applyChanges(changes)
        const a = yield* tables
        yield* reset
        const streams = yield* RedisStreams
        yield* streams.ensureGroup(group)
        yield* publish(changes)
        // small batches, four written at once: one event's versions land in different transactions
        const consumer = yield* Effect.fork(runMaterializer(options(group, "wide", { batchSize: 7, inFlight: 4 })))
        yield* waitUntil(groupDrained(group))
        yield* Fiber.interrupt(consumer)
        return [a, yield* tables] as const
      })
    )
    expect(parallel).toEqual(direct)
  })

  it("dead-letters a message that keeps failing, with its cause, and goes on", async () => {
    const good = script("dlq", 5)
    const poison: EventChange = { ...good[0], change_id: "poison:1", event_id: "poison", version: 1e30 }
    const group = "materialize-dlq"
    const dlq = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        const streams = yield* RedisStreams
        const redis = yield* Redis
        yield* streams.ensureGroup(group)
        yield* publish([poison, ...good])
        yield* redis.use("xadd", (r) => r.xAdd(streams.streamKey, "*", { c: "not json at all" }))
        const f = yield* Effect.fork(runConsumer(options(group, "c1", { claimIdleMs: 50 }), applyChanges))
        yield* waitUntil(groupDrained(group))
        yield* Fiber.interrupt(f)
        return yield* redis.use("xrange", (r) => r.xRange(streams.dlqKey, "-", "+"))
      })
    )
    const mine = dlq.filter((m) => m.message.group === group)
    expect(mine).toHaveLength(2)
    expect(mine.map((m) => m.message.cause).join("\n")).toMatch(/undecodable change/)
    expect(mine.map((m) => m.message.cause).join("\n")).toMatch(/SqlError|out of range|Failed/i)
    // a dead letter holds the message exactly as published (the retry one by one decodes it again from its body)
    expect(mine.find((m) => m.message.cause.match(/SqlError|out of range|Failed/i))?.message.c).toBe(
      JSON.stringify(poison)
    )
    expect(mine.find((m) => m.message.cause.includes("undecodable"))?.message.c).toBe("not json at all")
    const [events] = await rt.runPromise(tables)
    expect(events).toHaveLength(5)
  })
})

describe("stream trimming", () => {
  it("keeps every entry a group still needs and drops what all groups processed", async () => {
    const { trimStream } = await import("../../../shared/bus/StreamTrimmer.js")
    const changes = script("trim", 30)
    const result = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        const streams = yield* RedisStreams
        const redis = yield* Redis
        yield* streams.ensureGroup("g-fast")
        yield* streams.ensureGroup("g-slow")
        yield* publish(changes)
        const conn = redis.client
        // g-fast reads and acks everything; g-slow reads 10 and acks 5
        const all = yield* streams.read(conn, "g-fast", "c", 1000, 10)
        yield* streams.ack(
          "g-fast",
          all.map((m) => m.id)
        )
        const ten = yield* streams.read(conn, "g-slow", "c", 10, 10)
        yield* streams.ack(
          "g-slow",
          ten.slice(0, 5).map((m) => m.id)
        )
        // what the materializer passed on, on a stream no group reads here
        yield* Effect.flatMap(MaterializedStream, (s) => s.append([{ body: JSON.stringify(changes[0]) }]))
        const published = yield* Effect.flatMap(MaterializedStream, (s) => s.length)
        const trimmed = yield* trimStream
        const left = yield* streams.length
        return {
          trimmed,
          published,
          publishedLeft: yield* Effect.flatMap(MaterializedStream, (s) => s.length),
          left,
          total: all.length,
          firstPending: ten[5].id,
          firstLeft: (yield* redis.use("xrange", (c) => c.xRange(streams.streamKey, "-", "+", { COUNT: 1 })))[0].id
        }
      })
    )
    expect(result.trimmed.changes).toBe(5)
    // a published stream no group reads yet is emptied: a group that joins starts from its end
    expect(result.published).toBeGreaterThan(0)
    expect(result.trimmed.materialized).toBe(result.published)
    expect(result.publishedLeft).toBe(0)
    expect(result.left).toBe(result.total - 5)
    expect(result.firstLeft).toBe(result.firstPending)
  })
})
