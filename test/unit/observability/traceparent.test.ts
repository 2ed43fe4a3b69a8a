import { Tracer } from "effect"
import { describe, expect, it } from "vitest"
import { formatTraceparent, parseTraceparent, tracesEndpoint } from "../../../shared/observability/Tracing.js"

describe("W3C traceparent", () => {
  it("reads a valid header and writes it back unchanged", () => {
    const value = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    const span = parseTraceparent(value)!
    expect(span).toMatchObject({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      sampled: true
    })
    expect(formatTraceparent(span)).toBe(value)
    expect(parseTraceparent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-00")?.sampled).toBe(false)
  })

  it("ignores what the spec says to ignore: wrong shape, all-zero ids, absent", () => {
    for (const bad of [
      undefined,
      "",
      "garbage",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
      "00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01",
      "00-xyz92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    ]) {
      expect(parseTraceparent(bad), String(bad)).toBeUndefined()
    }
  })

  it("formats any span's ids", () => {
    expect(
      formatTraceparent(Tracer.externalSpan({ traceId: "a".repeat(32), spanId: "b".repeat(16), sampled: false }))
    ).toBe(`00-${"a".repeat(32)}-${"b".repeat(16)}-00`)
  })
})

describe("the OTLP traces endpoint", () => {
  it("comes from the OpenTelemetry variables, the traces one first; none means no tracing", () => {
    expect(tracesEndpoint({})).toBeUndefined()
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBeUndefined()
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toBe(
      "http://collector:4318/v1/traces"
    )
    expect(
      tracesEndpoint({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://other:4318/traces"
      })
    ).toBe("http://other:4318/traces")
  })
})
