import { Duration, Effect, Layer, Metric, MetricState, Option, Schedule } from "effect"
import { Redis } from "../../shared/db/Redis.js"
import { nowMillis } from "../../shared/time/Now.js"

/** One counter or gauge value of a worker, as the API's /metrics renders it. */
export interface PublishedSeries {
  readonly name: string
  readonly help: string
  readonly type: "counter" | "gauge"
  readonly labels: Record<string, string>
  readonly value: number
}

export interface WorkerMetrics {
  readonly worker: string
  readonly at: number
  readonly series: ReadonlyArray<PublishedSeries>
}

/** Redis hash of every worker's latest snapshot, field = worker name. */
export const METRICS_HASH = "metrics:workers"
export const PUBLISH_EVERY = Duration.seconds(5)
/** A worker silent this long is gone; the API stops showing its series. */
export const WORKER_METRICS_TTL_MS = 60_000

/** This process's Effect metrics (counters and gauges) as plain series. */
export const snapshotSeries = Effect.map(Metric.snapshot, (pairs) =>
  pairs.flatMap((pair): Array<PublishedSeries> => {
    const { name, tags, description } = pair.metricKey
    const help = Option.getOrElse(description, () => name)
    const labels = Object.fromEntries(tags.map((t) => [t.key, t.value]))
    const state: unknown = pair.metricState
    if (MetricState.isCounterState(state)) return [{ name, help, type: "counter", labels, value: Number(state.count) }]
    if (MetricState.isGaugeState(state)) return [{ name, help, type: "gauge", labels, value: Number(state.value) }]
    return []
  })
)

export const publishOnce = (worker: string) =>
  Effect.gen(function* () {
    const redis = yield* Redis
    const series = yield* snapshotSeries
    const body: WorkerMetrics = { worker, at: yield* nowMillis, series }
    yield* redis.use("hset metrics", (c) => c.hSet(redis.key(METRICS_HASH), worker, JSON.stringify(body)))
  })

/**
 * Metrics live in each pipeline process; every few seconds a process writes its snapshot to
 * Redis so the API's /metrics can show every worker's figures without scraping each process.
 */
export const MetricsPublisherLive = (worker: string) =>
  Layer.scopedDiscard(
    Effect.forkScoped(
      publishOnce(worker).pipe(
        Effect.catchAll((e) => Effect.logWarning(`metrics publish failed: ${e.message}`)),
        Effect.repeat(Schedule.spaced(PUBLISH_EVERY))
      )
    )
  )
