import { CLOSED, type CircuitState } from "../../shared/sources/pollState.js"

export { CLOSED, type CircuitState }

/**
 * Per-source circuit breaker, as pure state transitions. Closed until `threshold` consecutive
 * failed polls; then open for a cooldown that doubles on each failed half-open try.
 */
export interface CircuitPolicy {
  readonly threshold: number
  readonly baseCooldownMs: number
  readonly maxCooldownMs: number
}

export const circuitPolicy = (pollIntervalMs: number): CircuitPolicy => ({
  threshold: 5,
  baseCooldownMs: Math.max(pollIntervalMs * 4, 5_000),
  maxCooldownMs: 15 * 60_000
})

export const isOpen = (s: CircuitState, now: number) => s.openUntil > now

export const onSuccess = (): CircuitState => CLOSED

export const onFailure = (s: CircuitState, now: number, p: CircuitPolicy): CircuitState => {
  const failures = s.failures + 1
  if (failures < p.threshold) return { ...s, failures }
  const cooldownMs = s.cooldownMs === 0 ? p.baseCooldownMs : Math.min(s.cooldownMs * 2, p.maxCooldownMs)
  return { failures, openUntil: now + cooldownMs, cooldownMs }
}
