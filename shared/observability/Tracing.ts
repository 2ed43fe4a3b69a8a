import { OtlpSerialization, OtlpTracer } from "@effect/opentelemetry"
import { FetchHttpClient } from "@effect/platform"
import { Effect, FiberRef, Layer, Option, Tracer } from "effect"
import { keepTrace, samplingRatio } from "./sampling.js"

/**
 * Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, else OTEL_EXPORTER_OTLP_ENDPOINT +
 * /v1/traces (the OpenTelemetry variables, OTLP over HTTP with JSON bodies). Unset: no tracing.
 */
export const tracesEndpoint = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim()
  if (traces) return traces
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()
  return base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined
}

/** Read once per process: hot paths check this instead of building spans nobody exports. */
export const tracingOn = tracesEndpoint() !== undefined
/** the share of new traces kept (OTEL_TRACES_SAMPLER, sampling.ts) */
const ratio = samplingRatio()

/**
 * The process's tracer: OTLP export in batches (OTEL_BSP_SCHEDULE_DELAY ms apart, default 5000)
 * when an endpoint is set, flushed when the process stops, and enabled only inside the traces
 * `spanFrom` and `batchSpan` keep; without an endpoint tracing is switched off, so `withSpan`
 * costs a no-op span.
 */
export const TracingLive = (service: string): Layer.Layer<never> => {
  const url = tracesEndpoint()
  if (url === undefined) return Layer.setTracerEnabled(false)
  const delay = Number(process.env.OTEL_BSP_SCHEDULE_DELAY)
  const exporter = OtlpTracer.layer({
    url,
    resource: { serviceName: process.env.OTEL_SERVICE_NAME?.trim() || `road-data-${service}` },
    exportInterval: Number.isFinite(delay) && delay > 0 ? delay : 5000,
    shutdownTimeout: 2000
  }).pipe(Layer.provide(OtlpSerialization.layerJson), Layer.provide(FetchHttpClient.layer))
  // off outside the traces `spanFrom` and `batchSpan` keep: a claim loop's or a scrape's queries
  // would otherwise each start a trace of their own
  return Layer.merge(exporter, Layer.setTracerEnabled(false))
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** A W3C `traceparent` header value → the remote span it names; undefined when malformed. */
export const parseTraceparent = (value: string | undefined): Tracer.ExternalSpan | undefined => {
  const m = value === undefined ? null : TRACEPARENT.exec(value.trim().toLowerCase())
  if (!m || /^0+$/.test(m[1]) || /^0+$/.test(m[2])) return undefined
  return Tracer.externalSpan({ traceId: m[1], spanId: m[2], sampled: (parseInt(m[3], 16) & 1) === 1 })
}

export const formatTraceparent = (span: Tracer.AnySpan) =>
  `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`

/** The current span as a `traceparent`, when tracing is on and a span is open. */
export const currentTraceparent: Effect.Effect<string | undefined> = tracingOn
  ? Effect.map(Effect.option(Effect.currentSpan), Option.match({ onNone: () => undefined, onSome: formatTraceparent }))
  : Effect.succeed(undefined)

/**
 * Where a trace enters a process: a span whose parent is the remote context (a change's, a
 * delivery's, a caller's) when there is one, else a new trace, each kept as the sampler says
 * (sampling.ts; what is not kept runs with the tracer off); nothing at all when tracing is off.
 */
export const spanFrom =
  (name: string, traceparent: string | undefined, options: Omit<Tracer.SpanOptions, "parent" | "root"> = {}) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
    if (!tracingOn) return self
    const parent = parseTraceparent(traceparent)
    if (!keepTrace(parent, ratio)) return Effect.withTracerEnabled(self, false)
    return self.pipe(
      Effect.withSpan(name, parent ? { ...options, parent } : { ...options, root: true }),
      Effect.withTracerEnabled(true)
    )
  }

/** A span inside a traced one (`Effect.withSpan`) only when tracing is on: a hot path pays nothing otherwise. */
export const traced =
  (name: string, options: Tracer.SpanOptions = {}) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    tracingOn ? Effect.withSpan(self, name, options) : self

/**
 * The trace context each change of the batch being written arrived with (change id →
 * `traceparent`), for a stage that starts work of its own per change (a webhook delivery).
 */
export const changeTraces = FiberRef.unsafeMake<ReadonlyMap<string, string>>(new Map())

/** Links kept on a batch span for the other traces its changes came from. */
const MAX_LINKS = 32

/**
 * A stage's span over one batch: a child of the trace its first change came from (a poll's
 * changes travel together, so most batches hold one trace), linked to the others, with the
 * change ids it carried; `changeTraces` holds every change's context while it runs. Only the
 * traces their polls kept are followed; a batch without one is not traced.
 */
export const batchSpan =
  (name: string, changes: ReadonlyArray<{ readonly changeId: string; readonly traceparent?: string }>) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
    if (!tracingOn) return self
    const traces = new Map<string, string>()
    // each poll's context once: a batch holds few of them among many changes
    const kept = new Map<string, Tracer.ExternalSpan | undefined>()
    for (const c of changes) {
      if (c.traceparent === undefined) continue
      if (!kept.has(c.traceparent)) kept.set(c.traceparent, parseTraceparent(c.traceparent))
      if (kept.get(c.traceparent)?.sampled) traces.set(c.changeId, c.traceparent)
    }
    const [parent, ...others] = [...kept.values()].filter((span) => span?.sampled) as Array<Tracer.ExternalSpan>
    if (!parent) return Effect.withTracerEnabled(self, false)
    const links = others.slice(0, MAX_LINKS).map((span) => ({ _tag: "SpanLink" as const, span, attributes: {} }))
    return Effect.locally(self, changeTraces, traces).pipe(
      Effect.withSpan(name, {
        parent,
        links,
        attributes: { changes: changes.length, change_ids: changes.map((c) => c.changeId), traces: others.length + 1 }
      }),
      Effect.withTracerEnabled(true)
    )
  }
