/**
 * When a failed delivery is tried again (SPEC §6, §8): after 10 s, 30 s and 90 s, each ±10 %
 * so a receiver that failed for everyone is not hit by every retry at once; then it is dead.
 */
export const RETRY_DELAYS_S = [10, 30, 90] as const
export const JITTER = 0.1
/** dead deliveries in a row after which a subscription is disabled */
export const DISABLE_AFTER_FAILURES = 10
/** a Retry-After longer than this is not waited for */
export const MAX_RETRY_AFTER_S = 3600

/**
 * Delay before the next attempt after `failed` failed attempts in this round, or null when the
 * retries are spent. `random01` in [0, 1) picks the jitter; a Retry-After is a lower bound.
 */
export const retryDelayMs = (failed: number, random01: number, retryAfterS?: number): number | null => {
  if (failed < 1 || failed > RETRY_DELAYS_S.length) return null
  const base = RETRY_DELAYS_S[failed - 1] * 1000 * (1 + JITTER * (2 * random01 - 1))
  return retryAfterS === undefined ? base : Math.max(base, Math.min(retryAfterS, MAX_RETRY_AFTER_S) * 1000)
}

/** Retry-After as seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export const parseRetryAfter = (header: string | null, nowMs: number): number | undefined => {
  if (header === null || header.trim() === "") return undefined
  const t = header.trim()
  if (/^\d+$/.test(t)) return Number(t)
  const at = Date.parse(t)
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - nowMs) / 1000)) : undefined
}
