import { Effect, Schema } from "effect"
import { Redis } from "../db/Redis.js"
import { nowMillis } from "../time/Now.js"

/**
 * Pipeline workers' metric snapshots in Redis: written by each worker's publisher, read by the
 * API's /metrics. Both sides go through this module, and reads decode with the Schema, so a
 * malformed or foreign value is dropped, never trusted.
 */
export const PublishedSeries = Schema.Struct({
  name: Schema.String,
  help: Schema.String,
  type: Schema.Literal("counter", "gauge"),
  labels: Schema.Record({ key: Schema.String, value: Schema.String }),
  value: Schema.Number
})
export type PublishedSeries = typeof PublishedSeries.Type

export const WorkerMetrics = Schema.Struct({
  worker: Schema.String,
  at: Schema.Number,
  series: Schema.Array(PublishedSeries)
})
export type WorkerMetrics = typeof WorkerMetrics.Type

/** Redis hash of every worker's latest snapshot, field = worker name. */
export const METRICS_HASH = "metrics:workers"
/** A worker silent this long is gone; the API stops showing its series. */
export const WORKER_METRICS_TTL_MS = 60_000

const decodeSnapshot = Schema.decodeUnknownOption(Schema.parseJson(WorkerMetrics))

export const writeWorkerMetrics = (snapshot: WorkerMetrics) =>
  Effect.flatMap(Redis, (redis) =>
    redis.use("hset metrics", (c) => c.hSet(redis.key(METRICS_HASH), snapshot.worker, JSON.stringify(snapshot)))
  )

/** Live workers' snapshots; stale or undecodable ones are removed from the hash. */
export const workerSnapshots = Effect.gen(function* () {
  const redis = yield* Redis
  const all = yield* redis.use("hgetall metrics", (c) => c.hGetAll(redis.key(METRICS_HASH)))
  const now = yield* nowMillis
  const live: Array<WorkerMetrics> = []
  const drop: Array<string> = []
  for (const [worker, text] of Object.entries(all)) {
    const snap = decodeSnapshot(text)
    if (snap._tag === "Some" && now - snap.value.at <= WORKER_METRICS_TTL_MS) live.push(snap.value)
    else drop.push(worker)
  }
  if (drop.length > 0) yield* redis.use("hdel metrics", (c) => c.hDel(redis.key(METRICS_HASH), drop))
  return live
})
