import { randomBytes } from "node:crypto"
import { type Exit, Option, Tracer } from "effect"

/**
 * The share of new traces kept, from the OpenTelemetry variables: OTEL_TRACES_SAMPLER
 * `parentbased_traceidratio` / `traceidratio` with OTEL_TRACES_SAMPLER_ARG (0–1), `always_off`
 * (0), anything else or unset `always_on` (1). A span with a parent follows its parent, so a
 * change's trace is kept or dropped whole, across processes (the `traceparent` carries the flag).
 */
export const samplingRatio = (env: NodeJS.ProcessEnv = process.env): number => {
  const sampler = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase()
  if (sampler === "always_off" || sampler === "parentbased_always_off") return 0
  if (sampler !== "traceidratio" && sampler !== "parentbased_traceidratio") return 1
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG ?? 1)
  return Number.isFinite(arg) ? Math.min(1, Math.max(0, arg)) : 1
}

/** A span that is never exported: it carries ids (and the not-sampled flag) to its children. */
class DroppedSpan implements Tracer.Span {
  readonly _tag = "Span"
  readonly spanId = randomBytes(8).toString("hex")
  readonly traceId: string
  readonly sampled = false
  readonly attributes = new Map<string, unknown>()
  readonly links: Array<Tracer.SpanLink>
  status: Tracer.SpanStatus
  constructor(readonly name: string, readonly parent: Option.Option<Tracer.AnySpan>, readonly context: Tracer.Span["context"], links: ReadonlyArray<Tracer.SpanLink>, startTime: bigint, readonly kind: Tracer.SpanKind) {
    this.traceId = Option.isSome(parent) ? parent.value.traceId : randomBytes(16).toString("hex")
    this.links = [...links]
    this.status = { _tag: "Started", startTime }
  }
  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>) {
    this.status = { _tag: "Ended", startTime: this.status.startTime, endTime, exit }
  }
  attribute() {}
  event() {}
  addLinks() {}
}

/** `inner` for the traces kept (a root by `ratio`, a child as its parent was), dropped spans otherwise. */
export const sampledTracer = (inner: Tracer.Tracer, ratio: number): Tracer.Tracer =>
  ratio >= 1 ? inner : Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) =>
      (Option.isSome(parent) ? parent.value.sampled : Math.random() < ratio)
        ? inner.span(name, parent, context, links, startTime, kind, options)
        : new DroppedSpan(name, parent, context, links, startTime, kind),
    context: (f, fiber) => inner.context(f, fiber)
  })
