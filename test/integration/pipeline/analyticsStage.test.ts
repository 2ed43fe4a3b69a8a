import { SqlClient } from "@effect/sql"
import { Effect, Fiber, Layer, ManagedRuntime } from "effect"
import { cellToParent, latLngToCell } from "h3-js"
import { afterAll, describe, expect, it } from "vitest"
import { RedisStreams } from "../../../shared/bus/RedisStreams.js"
import { PipelineServices } from "../../../pipeline/PipelineLive.js"
import { diffFeaturePoll, type FeatureSnap } from "../../../pipeline/diff/FeatureDiffer.js"
import { ANALYTICS_GROUP, runAnalytics } from "../../../pipeline/stages/analytics/AnalyticsStage.js"
import { applyAnalytics } from "../../../pipeline/stages/analytics/applyAnalytics.js"
import { defaultConsumerOptions } from "../../../pipeline/stages/ConsumerLoop.js"
import { Redis } from "../../../shared/db/Redis.js"
import type { EventChange, FeatureChange } from "../../../shared/domain/Change.js"
import type { FeatureObservation } from "../../../shared/domain/Feature.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { scriptedChanges } from "../../support/eventHistory.js"
import { makeTestEnv } from "../../support/harness.js"
import { groupDrained, publish, waitUntil } from "../../support/stream.js"

/** The analytics stage on a real stream and a real database: idempotent, reclaiming, dead-lettering. */
const env = makeTestEnv()
const rt = ManagedRuntime.make(PipelineServices.pipe(Layer.provideMerge(env.layer)))
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const settings = { maxKm: 50, lateS: 900 }

const tables = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`SELECT event_id, jurisdiction, type, severity, roads, latitude, longitude, h3_r9, start_time, created_at, content_version,
             archived_at, archive_reason, archive_version, clearance_minutes FROM analytics_events ORDER BY event_id`,
    sql`SELECT * FROM weather_readings ORDER BY station_id`,
    sql`SELECT event_id, station_id, created_at, reading_recorded_at, distance_km, precipitation FROM event_weather_snapshots ORDER BY event_id`
  ])
)

const reset = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const redis = yield* Redis
  const streams = yield* RedisStreams
  yield* sql`TRUNCATE analytics_events, weather_readings, event_weather_snapshots`
  yield* redis.use("del", (r) => r.del([streams.streamKey, streams.dlqKey]))
})

const stationPolls = (polls: ReadonlyArray<ReadonlyArray<FeatureObservation>>, startMs: number) => {
  let prev = new Map<string, FeatureSnap>()
  const all: Array<FeatureChange> = []
  polls.forEach((records, i) => {
    const at = new Date(startMs + i * 60_000)
    const r = diffFeaturePoll({ source: "wx", polledAt: at, now: at, records, presentIds: [], prev })
    prev = new Map(prev)
    for (const [k, v] of r.upserts) prev.set(k, v)
    all.push(...r.changes)
  })
  return all
}

const wx = (id: string, lat: number, precipitation: string) =>
  feature(id, {
    feature_type: "weather_stations",
    latitude: lat,
    longitude: -73.99,
    jurisdiction: "NY",
    properties: { temperature: 40, precipitation, observed_at: "2026-11-01T09:00:00Z" }
  })

/** A mixed script: stations, creations, severity changes, archives and a come-back. */
const script = (n: number) => {
  const start = Date.UTC(2026, 10, 1, 10)
  const stations = stationPolls(
    [
      [wx("w1", 40.8, "rain"), wx("w2", 41.5, "snow")],
      [wx("w1", 40.8, "snow"), wx("w2", 41.5, "snow")]
    ],
    start - 120_000
  )
  const first = Array.from({ length: n }, (_, i) => observation(`s${i}`, { latitude: 40.75 + (i % 10) * 0.1 }))
  const second = first.map((o, i) => (i % 3 === 0 ? { ...o, severity: "major" as const } : o))
  const third = second.filter((_, i) => i % 5 !== 0)
  return [...stations, ...changeScript("st", [first, second, third, second], start)]
}

describe("h3_parent (SQL)", () => {
  it("gives the same parent as h3-js at every resolution hotspots offer", async () => {
    const points = Array.from(
      { length: 200 },
      (_, i) => [25 + ((i * 37) % 300) / 10, -125 + ((i * 53) % 650) / 10] as const
    )
    const cells = points.map(([lat, lng]) => latLngToCell(lat, lng, 9))
    const rows = await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ cell: string; res: number; parent: string }>`
      SELECT c AS cell, r AS res, to_hex(h3_parent(('x' || lpad(c, 16, '0'))::bit(64)::bigint, r)) AS parent
      FROM unnest(${cells}::text[]) AS c, generate_series(0, 9) AS r`
      )
    )
    expect(rows).toHaveLength(2000)
    for (const row of rows) expect(row.parent).toBe(cellToParent(row.cell, row.res))
  })
})

describe("analytics stage", () => {
  it("applies the same messages twice, or one by one in reverse, to the same rows", async () => {
    const changes = script(40)
    const [once, twice, reversed] = await rt.runPromise(
      Effect.gen(function* () {
        const apply = applyAnalytics(settings)
        yield* reset
        yield* apply(changes)
        const a = yield* tables
        yield* apply(changes)
        const b = yield* tables
        yield* reset
        // stations first so every event can find them; events in reverse, one message at a time
        const stations = changes.filter((c) => c.kind === "feature")
        yield* apply(stations)
        for (const c of changes.filter((c) => c.kind === "event").reverse()) yield* apply([c])
        return [a, b, yield* tables] as const
      })
    )
    expect(twice).toEqual(once)
    expect(reversed[0]).toEqual(once[0])
    expect(once[0]).toHaveLength(40)
    // i % 5 === 0 left and came back: live again; the rest never left
    expect(once[0].filter((r) => r.archived_at !== null)).toHaveLength(0)
    expect(once[0].filter((r) => r.severity === "major")).toHaveLength(14)
    // events at 40.75–41.65: w1 (40.8) within 50 km of the first six rows of ten, w2 (41.5) of the rest
    expect(once[2]).toHaveLength(40)
    expect(new Set(once[2].map((s) => s.precipitation))).toEqual(new Set(["snow"]))
    expect(once[1].map((w) => w.precipitation)).toEqual(["snow", "snow"])
  })

  it("takes a station's first reading for events created up to WEATHER_SNAPSHOT_LATE_S before it, not earlier ones", async () => {
    // (and, the same window after it, for events a reclaimed batch applied before the reading)
    const t = Date.UTC(2026, 10, 2, 12)
    const iso = (ms: number) => new Date(ms).toISOString()
    const ev = (name: string, createdMs: number) =>
      scriptedChanges({
        source: "late",
        o: observation(name, { latitude: 40.75, longitude: -73.99 }),
        createdAt: iso(createdMs)
      })
    const early = ev("early", t - 20 * 60_000)
    const recent = ev("recent", t - 5 * 60_000)
    const station = stationPolls([[wx("late-w", 40.76, "rain")]], t)
    const rows = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        const apply = applyAnalytics(settings)
        yield* apply([...early, ...recent])
        yield* apply(station)
        return (yield* tables)[2]
      })
    )
    expect(rows.map((r) => r.event_id)).toEqual([recent[0].event_id])
    expect(rows[0]).toMatchObject({ created_at: iso(t - 5 * 60_000), precipitation: "rain" })
  })

  it("consumes the stream in group analytics, reclaims what a dead consumer held, and dead-letters a poison message with its cause", async () => {
    const changes = script(30)
    const poison: EventChange = {
      ...(changes.find((c) => c.kind === "event") as EventChange),
      change_id: "poison:1",
      event_id: "poison",
      version: 1e30
    }
    const result = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        const streams = yield* RedisStreams
        const redis = yield* Redis
        yield* streams.ensureGroup(ANALYTICS_GROUP)
        yield* publish([poison, ...changes])
        // a consumer reads a batch and dies before acknowledging it
        const taken = yield* streams.read(redis.client, ANALYTICS_GROUP, "dead", 20, 10)
        const options = { ...defaultConsumerOptions(ANALYTICS_GROUP, "alive"), claimIdleMs: 200, maxDeliveries: 3 }
        const f = yield* Effect.fork(runAnalytics(options, settings))
        yield* waitUntil(groupDrained(ANALYTICS_GROUP))
        yield* Fiber.interrupt(f)
        const dlq = yield* redis.use("xrange", (r) => r.xRange(streams.dlqKey, "-", "+"))
        return { taken: taken.length, dlq, rows: yield* tables }
      })
    )
    expect(result.taken).toBe(20)
    expect(result.rows[0]).toHaveLength(30)
    expect(result.rows[2]).toHaveLength(30)
    const mine = result.dlq.filter((m) => m.message.group === ANALYTICS_GROUP)
    expect(mine).toHaveLength(1)
    expect(mine[0].message.cause).toMatch(/SqlError|out of range|Failed/i)
  })
})
