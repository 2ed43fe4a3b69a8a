import { Tracer } from "effect"
import { describe, expect, it } from "vitest"
import { keepTrace, samplingRatio } from "../../../shared/observability/sampling.js"

const remote = (sampled: boolean) => Tracer.externalSpan({ traceId: "a".repeat(32), spanId: "b".repeat(16), sampled })

describe("trace sampling", () => {
  it("reads the OpenTelemetry sampler variables", () => {
    expect(samplingRatio({})).toBe(1)
    expect(samplingRatio({ OTEL_TRACES_SAMPLER: "always_on" })).toBe(1)
    expect(samplingRatio({ OTEL_TRACES_SAMPLER: "always_off" })).toBe(0)
    expect(samplingRatio({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" })).toBe(0.1)
    expect(samplingRatio({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "7" })).toBe(1)
    expect(samplingRatio({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "nonsense" })).toBe(1)
  })

  it("follows a remote parent whatever the ratio, so a change's trace is kept or dropped whole", () => {
    expect(keepTrace(remote(true), 0, () => 0.99)).toBe(true)
    expect(keepTrace(remote(false), 1, () => 0)).toBe(false)
  })

  it("keeps a new trace by the ratio", () => {
    expect(keepTrace(undefined, 1, () => 0.999)).toBe(true)
    expect(keepTrace(undefined, 0, () => 0)).toBe(false)
    expect(keepTrace(undefined, 0.25, () => 0.2)).toBe(true)
    expect(keepTrace(undefined, 0.25, () => 0.3)).toBe(false)
  })
})
