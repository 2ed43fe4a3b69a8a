import { Effect } from "effect"
import client from "prom-client"
import { RedisStreams } from "../../shared/bus/RedisStreams.js"
import { workerSnapshots } from "../../shared/metrics/WorkerMetrics.js"
import type { ApiRuntime } from "../runtime.js"
import type { ResponseCache } from "../cache/ResponseCache.js"

/** Per consumer group: entries not yet delivered to it (Redis 7 `lag`) and delivered but unacknowledged. */
const streamLag = Effect.flatMap(RedisStreams, (s) => s.groups).pipe(Effect.provide(RedisStreams.layer))

/**
 * The API's Prometheus registry: its own request counts and latency per route, plus — read at
 * scrape time — every live pipeline worker's published counters and the stream lag per group.
 */
export const makeMetrics = (rt: ApiRuntime, cache?: Pick<ResponseCache<unknown>, "counts" | "stats">) => {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry, prefix: "api_" })
  const requests = new client.Counter({
    name: "http_requests_total", help: "API requests by route, method and status", labelNames: ["route", "method", "status"] as const, registers: [registry]
  })
  const latency = new client.Histogram({
    name: "http_request_duration_seconds", help: "API request latency by route", labelNames: ["route", "method"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [registry]
  })
  new client.Gauge({
    name: "stage_lag_messages", help: "Stream entries a consumer group has not yet processed (undelivered + unacknowledged)",
    labelNames: ["group"] as const, registers: [registry],
    async collect() {
      this.reset()
      for (const g of await rt.run(streamLag)) this.set({ group: g.group }, (g.lag ?? 0) + g.pending)
    }
  })

  if (cache) {
    new client.Counter({
      name: "api_response_cache_answers_total", help: "Shared-answer outcomes: hit, stale (within the staleness budget), miss, shared (joined a computation), bypass (no live invalidation feed)",
      labelNames: ["outcome"] as const, registers: [registry],
      collect() {
        this.reset()
        for (const [outcome, n] of Object.entries(cache.counts())) this.inc({ outcome }, n)
      }
    })
    new client.Gauge({
      name: "api_response_cache_bytes", help: "Bytes of shared answers held by this worker", registers: [registry],
      collect() { this.set(cache.stats().bytes) }
    })
  }

  /** Worker series are rendered by hand after the registry: their names and labels are only known at scrape time. */
  const renderWorkers = async () => {
    const snaps = await rt.run(workerSnapshots)
    const families = new Map<string, { help: string; type: string; lines: Array<string> }>()
    for (const snap of snaps) {
      for (const s of snap.series) {
        const f = families.get(s.name) ?? { help: s.help, type: s.type, lines: [] }
        families.set(s.name, f)
        const labels = Object.entries({ ...s.labels, worker: snap.worker }).map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")
        f.lines.push(`${s.name}{${labels}} ${s.value}`)
      }
    }
    return [...families.entries()].map(([name, f]) => `# HELP ${name} ${f.help}\n# TYPE ${name} ${f.type}\n${f.lines.join("\n")}\n`).join("")
  }

  return {
    contentType: registry.contentType,
    observe: (route: string, method: string, status: number, seconds: number) => {
      requests.inc({ route, method, status: String(status) })
      latency.observe({ route, method }, seconds)
    },
    render: async () => (await registry.metrics()) + (await renderWorkers())
  }
}

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')

export type ApiMetrics = ReturnType<typeof makeMetrics>
