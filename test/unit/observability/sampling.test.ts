import { Effect, Tracer } from "effect"
import { describe, expect, it } from "vitest"
import { sampledTracer, samplingRatio } from "../../../shared/observability/sampling.js"

/** A tracer that records which spans reach it, as the OTLP exporter would export them. */
const recording = () => {
  const names: Array<string> = []
  const tracer = Tracer.make({
    span: (name, parent, context, links, startTime, kind) => {
      names.push(name)
      return {
        _tag: "Span", name, spanId: "1".repeat(16), traceId: parent._tag === "Some" ? parent.value.traceId : "2".repeat(32), parent, context,
        status: { _tag: "Started", startTime }, attributes: new Map(), links, sampled: true, kind,
        end: () => undefined, attribute: () => undefined, event: () => undefined, addLinks: () => undefined
      }
    },
    context: (f) => f()
  })
  return { tracer, names }
}

const run = (tracer: Tracer.Tracer, parent?: Tracer.ExternalSpan) =>
  Effect.runSync(Effect.gen(function* () {
    const outer = yield* Effect.currentSpan
    const inner = yield* Effect.currentSpan.pipe(Effect.withSpan("child"))
    return { outer, inner }
  }).pipe(Effect.withSpan("root", parent ? { parent } : {}), Effect.withTracer(tracer)))

describe("trace sampling", () => {
  it("reads the OpenTelemetry sampler variables", () => {
    expect(samplingRatio({})).toBe(1)
    expect(samplingRatio({ OTEL_TRACES_SAMPLER: "always_on" })).toBe(1)
    expect(samplingRatio({ OTEL_TRACES_SAMPLER: "always_off" })).toBe(0)
    expect(samplingRatio({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" })).toBe(0.1)
    expect(samplingRatio({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "7" })).toBe(1)
    expect(samplingRatio({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "nonsense" })).toBe(1)
  })

  it("drops a whole new trace that is not kept, children included, and keeps its ids for the context it passes on", () => {
    const r = recording()
    const { outer, inner } = run(sampledTracer(r.tracer, 0))
    expect(r.names).toEqual([])
    expect(outer.sampled).toBe(false)
    expect(inner.traceId).toBe(outer.traceId)
    expect(outer.traceId).toMatch(/^[0-9a-f]{32}$/)
  })

  it("follows the parent a change or a caller brought, whatever the ratio", () => {
    const kept = recording()
    run(sampledTracer(kept.tracer, 0), Tracer.externalSpan({ traceId: "a".repeat(32), spanId: "b".repeat(16), sampled: true }))
    expect(kept.names).toEqual(["root", "child"])
    const dropped = recording()
    run(sampledTracer(dropped.tracer, 1 - Number.EPSILON), Tracer.externalSpan({ traceId: "a".repeat(32), spanId: "b".repeat(16), sampled: false }))
    expect(dropped.names).toEqual([])
  })

  it("keeps about the asked share of new traces", () => {
    const r = recording()
    const tracer = sampledTracer(r.tracer, 0.25)
    for (let i = 0; i < 4000; i++) run(tracer)
    const roots = r.names.filter((n) => n === "root").length
    expect(roots).toBeGreaterThan(800)
    expect(roots).toBeLessThan(1200)
  })
})
