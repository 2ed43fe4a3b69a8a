import { Effect } from "effect"
import client from "prom-client"
import { type PublishedSeries, workerSnapshots, writeWorkerMetrics } from "../../shared/metrics/WorkerMetrics.js"
import type { ApiRuntime } from "../runtime.js"
import { nowMillis } from "../../shared/time/Now.js"
import type { ResponseCache } from "../cache/ResponseCache.js"
import type { StandingBarriersShape } from "../../shared/routing/plan/standingBarriers.js"
import type { HazardCellStore } from "../../shared/routing/hazards/HazardCells.js"
import type { ReadReplicasShape } from "../db/ReadReplicas.js"
import { operationsSnapshot, type OperationsSnapshot } from "./operationsSnapshot.js"

/** How often an API worker writes its own counters to Redis for the other workers' scrapes. */
const PUBLISH_EVERY_MS = 5000

/**
 * The API's Prometheus registry: its own request counts and latency per route, plus — read at
 * scrape time — every live pipeline worker's published counters and the stream lag per group.
 * A scrape reaches one of the API's workers (they share a port), so each worker's own counters
 * (requests, latency, shared answers) are labelled `worker` and published to Redis like the
 * pipeline's: whichever worker answers shows every worker's series, and rates stay whole.
 */
export const makeMetrics = (
  rt: ApiRuntime,
  cache?: Pick<ResponseCache<unknown>, "counts" | "stats">,
  replicas?: ReadReplicasShape,
  barriers?: Pick<StandingBarriersShape, "size">,
  routeReads?: Pick<HazardCellStore, "stats">
) => {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry, prefix: "api_" })
  const self = `api-${process.pid}`
  const own = new client.Registry()
  const requests = new client.Counter({
    name: "http_requests_total",
    help: "API requests by route, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [own]
  })
  const latency = new client.Histogram({
    name: "http_request_duration_seconds",
    help: "API request latency by route",
    labelNames: ["route", "method"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [own]
  })
  // one snapshot per scrape feeds the gauges operators' alerts read (infra/observability/alerts.yml)
  let snapshot: Promise<OperationsSnapshot> | undefined
  const current = () => (snapshot ??= rt.run(operationsSnapshot))
  /** A gauge whose series are read from the scrape's snapshot, one per label value. */
  const snapshotGauge = (
    name: string,
    help: string,
    label: string,
    series: (o: OperationsSnapshot) => ReadonlyArray<readonly [string, number]>
  ) =>
    new client.Gauge({
      name,
      help,
      labelNames: [label],
      registers: [registry],
      async collect() {
        this.reset()
        for (const [value, n] of series(await current())) this.set({ [label]: value }, n)
      }
    })
  snapshotGauge(
    "stage_lag_messages",
    "Stream entries a consumer group has not yet processed (undelivered + unacknowledged)",
    "group",
    (o) => o.backlog.map((g) => [g.group, g.messages])
  )
  snapshotGauge(
    "stage_lag_seconds",
    "Age of the oldest stream entry a consumer group has not finished (0 when it is caught up)",
    "group",
    (o) => o.lag.map((g) => [g.group, g.seconds])
  )
  snapshotGauge(
    "dependency_up",
    "1 when the store answers a 2-second probe as /health asks it, else 0",
    "dependency",
    (o) => [
      ["postgres", o.up.postgres ? 1 : 0],
      ["redis", o.up.redis ? 1 : 0]
    ]
  )
  snapshotGauge(
    "pipeline_source_circuit_open",
    "1 while a source's circuit breaker is open (its polls are skipped), else 0",
    "source",
    (o) => o.circuits.map((c) => [c.source, c.open ? 1 : 0])
  )
  snapshotGauge(
    "webhook_subscriptions_disabled",
    "Webhook subscriptions switched off, by reason: failures (dead deliveries in a row), gone (HTTP 410), owner",
    "reason",
    (o) => o.disabled.map((d) => [d.reason, d.n])
  )

  if (cache) {
    new client.Counter({
      name: "api_response_cache_answers_total",
      help: "Shared-answer outcomes: hit, stale (within the staleness budget), miss, shared (joined a computation), bypass (no live invalidation feed)",
      labelNames: ["outcome"] as const,
      registers: [own],
      collect() {
        this.reset()
        for (const [outcome, n] of Object.entries(cache.counts())) this.inc({ outcome }, n)
      }
    })
    new client.Gauge({
      name: "api_response_cache_bytes",
      help: "Bytes of shared answers held by this worker",
      registers: [own],
      collect() {
        this.set(cache.stats().bytes)
      }
    })
  }

  if (barriers) {
    new client.Gauge({
      name: "api_routing_standing_barriers",
      help: "Closures and truck-barring structures this worker's route planner knows ahead of any route; -1 until loaded",
      registers: [own],
      collect() {
        this.set(barriers.size())
      }
    })
  }

  if (routeReads) {
    new client.Counter({
      name: "api_routing_kept_reads_total",
      help: "Route reads (a cell's events or candidates, a feature row) by outcome: hit, kept from another route and unchanged since; miss, read from the database",
      labelNames: ["outcome"] as const,
      registers: [own],
      collect() {
        this.reset()
        const s = routeReads.stats()
        this.inc({ outcome: "hit" }, s.hits)
        this.inc({ outcome: "miss" }, s.misses)
      }
    })
  }

  if (replicas?.configured) {
    new client.Counter({
      name: "api_replica_reads_total",
      help: "Data reads by where they ran: replica, or primary (no replica up and current, or one failed the read)",
      labelNames: ["target"] as const,
      registers: [own],
      collect() {
        this.reset()
        for (const [target, n] of Object.entries(replicas.counts())) this.inc({ target }, n)
      }
    })
    new client.Gauge({
      name: "api_replica_up",
      help: "1 while a read replica answers its probe and is used, else 0",
      labelNames: ["replica"] as const,
      registers: [own],
      collect() {
        this.reset()
        for (const r of replicas.states()) this.set({ replica: r.name }, r.up ? 1 : 0)
      }
    })
    new client.Gauge({
      name: "api_replica_behind_bytes",
      help: "WAL bytes of announced changes a read replica has not replayed yet (reads go to the primary meanwhile)",
      labelNames: ["replica"] as const,
      registers: [own],
      collect() {
        this.reset()
        for (const r of replicas.states()) this.set({ replica: r.name }, r.behindBytes)
      }
    })
  }

  /** This worker's own series as published series (a histogram as its _bucket, _sum and _count counters). */
  const ownSeries = async (): Promise<Array<PublishedSeries>> =>
    (await own.getMetricsAsJSON()).flatMap((m) =>
      m.values.map((v) => ({
        name: (v as { metricName?: string }).metricName ?? m.name,
        help: m.help,
        type: String(m.type) === "gauge" ? ("gauge" as const) : ("counter" as const),
        labels: Object.fromEntries(Object.entries(v.labels).map(([k, x]) => [k, String(x)])),
        value: v.value
      }))
    )
  // every few seconds, and not holding the process open; a Redis away is skipped past
  const publish = () =>
    ownSeries().then((series) =>
      rt.run(
        Effect.flatMap(nowMillis, (at) => writeWorkerMetrics({ worker: self, at, series })).pipe(
          Effect.timeout("2 seconds"),
          Effect.ignore
        )
      )
    )
  setInterval(() => void publish().catch(() => undefined), PUBLISH_EVERY_MS).unref()

  /**
   * Worker series are rendered by hand after the registry: their names and labels are only
   * known at scrape time. This worker's own come from memory (so they survive a Redis away).
   */
  const renderWorkers = async () => {
    const mine = { worker: self, series: await ownSeries() }
    const others = await rt.run(
      Effect.map(workerSnapshots, (snaps) => snaps.filter((s) => s.worker !== self)).pipe(
        Effect.timeout("2 seconds"),
        Effect.orElseSucceed(() => [])
      )
    )
    const families = new Map<string, { help: string; type: string; lines: Array<string> }>()
    for (const snap of [mine, ...others]) {
      for (const s of snap.series) {
        const f = families.get(s.name) ?? { help: s.help, type: s.type, lines: [] }
        families.set(s.name, f)
        const labels = Object.entries({ ...s.labels, worker: snap.worker })
          .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
          .join(",")
        f.lines.push(`${s.name}{${labels}} ${s.value}`)
      }
    }
    return [...families.entries()]
      .map(([name, f]) => `# HELP ${name} ${f.help}\n# TYPE ${name} ${f.type}\n${f.lines.join("\n")}\n`)
      .join("")
  }

  return {
    contentType: registry.contentType,
    observe: (route: string, method: string, status: number, seconds: number) => {
      requests.inc({ route, method, status: String(status) })
      latency.observe({ route, method }, seconds)
    },
    render: async () => {
      snapshot = undefined
      try {
        return (await registry.metrics()) + (await renderWorkers())
      } finally {
        snapshot = undefined
      }
    }
  }
}

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')

export type ApiMetrics = ReturnType<typeof makeMetrics>
