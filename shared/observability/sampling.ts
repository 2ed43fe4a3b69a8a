import type { Tracer } from "effect"

/**
 * The share of new traces kept, from the OpenTelemetry variables: OTEL_TRACES_SAMPLER
 * `parentbased_traceidratio` / `traceidratio` with OTEL_TRACES_SAMPLER_ARG (0–1), `always_off`
 * (0), anything else or unset `always_on` (1).
 */
export const samplingRatio = (env: NodeJS.ProcessEnv = process.env): number => {
  const sampler = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase()
  if (sampler === "always_off" || sampler === "parentbased_always_off") return 0
  if (sampler !== "traceidratio" && sampler !== "parentbased_traceidratio") return 1
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG ?? 1)
  return Number.isFinite(arg) ? Math.min(1, Math.max(0, arg)) : 1
}

/**
 * Whether a span is traced, decided where a trace enters a process: with a remote parent (a
 * change's, a delivery's, a caller's `traceparent`) as the parent was, so a change's trace is
 * kept or dropped whole across processes; a new trace by `ratio`. What is not kept runs with the
 * tracer switched off, at the cost of untraced code.
 */
export const keepTrace = (
  parent: Tracer.ExternalSpan | undefined,
  ratio: number,
  random: () => number = Math.random
) => (parent !== undefined ? parent.sampled : ratio >= 1 || random() < ratio)
