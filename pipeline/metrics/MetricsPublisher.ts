import { Duration, Effect, Layer, Metric, MetricState, Option, Schedule } from "effect"
import { type PublishedSeries, writeWorkerMetrics } from "../../shared/metrics/WorkerMetrics.js"
import { nowMillis } from "../../shared/time/Now.js"

export const PUBLISH_EVERY = Duration.seconds(5)

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
    const series = yield* snapshotSeries
    yield* writeWorkerMetrics({ worker, at: yield* nowMillis, series })
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
