import { SqlClient } from "@effect/sql"
import { Clock, Effect, Metric, Random } from "effect"
import { decryptSecret } from "../../../shared/webhooks/secrets.js"
import { signatureHeaders } from "../../../shared/webhooks/signature.js"
import { checkTargetUrl } from "../../../shared/webhooks/targetUrl.js"
import { webhookDeliveries } from "../../poll/metrics.js"
import { DISABLE_AFTER_FAILURES, parseRetryAfter, retryDelayMs } from "./retrySchedule.js"

export interface DispatchSettings {
  readonly timeoutMs: number
  readonly allowPrivateTargets: boolean
  readonly masterKey: string
  /** a claimed delivery not finished by then is claimed again (its sender died) */
  readonly leaseMs: number
}

export interface ClaimedDelivery {
  readonly id: string
  readonly subscription_id: string
  readonly body: string
  readonly attempts: number
  readonly round_start: number
  readonly url: string
  readonly secret_enc: Buffer
}

/** What one POST came to. Redirects are not followed: a 3xx is a failure like a 4xx or 5xx. */
export interface AttemptResult {
  readonly status: number | null
  readonly error: string | null
  readonly retryAfter: string | null
  readonly latencyMs: number
}

/**
 * Claims up to `limit` due deliveries of enabled subscriptions by pushing their next attempt one
 * lease ahead (SKIP LOCKED: several senders never take the same row).
 */
export const claimDue = (limit: number, leaseMs: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const nowMs = yield* Clock.currentTimeMillis
    return yield* sql<ClaimedDelivery>`
      WITH c AS (
        SELECT d.id FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= ${new Date(nowMs).toISOString()} AND s.is_enabled
        ORDER BY d.next_attempt_at LIMIT ${limit} FOR UPDATE OF d SKIP LOCKED)
      UPDATE webhook_deliveries d SET next_attempt_at = ${new Date(nowMs + leaseMs).toISOString()}
      FROM c, webhook_subscriptions s
      WHERE d.id = c.id AND s.id = d.subscription_id
      RETURNING d.id, d.subscription_id, d.body, d.attempts, d.round_start, s.url, s.secret_enc`
  })

/** One signed POST with a time limit; never throws. */
export const post = async (url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult> => {
  const t0 = performance.now()
  try {
    const res = await fetch(url, { method: "POST", headers, body, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) })
    // drain (bounded by the time limit) so the connection can be reused
    await res.arrayBuffer().catch(() => undefined)
    const ok = res.status >= 200 && res.status < 300
    return {
      status: res.status,
      error: ok ? null : res.status >= 300 && res.status < 400 ? `redirect ${res.status} not followed` : `HTTP ${res.status}`,
      retryAfter: res.headers.get("retry-after"),
      latencyMs: Math.round(performance.now() - t0)
    }
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }
    const cause = err.cause
    const reason = err.name === "TimeoutError"
      ? `timed out after ${timeoutMs} ms`
      : cause?.code ?? cause?.errors?.find((x) => x.code)?.code ?? cause?.message ?? err.message
    return { status: null, error: String(reason).slice(0, 300), retryAfter: null, latencyMs: Math.round(performance.now() - t0) }
  }
}

/**
 * Records an attempt and moves the delivery on: succeeded; retried after 10/30/90 s ± 10 % (or a
 * longer Retry-After on 429/503); dead once the retries are spent. A dead delivery counts toward
 * the subscription's consecutive failures (10 disable it), a success resets them, a 410 disables
 * it at once.
 */
export const recordAttempt = (d: ClaimedDelivery, r: AttemptResult, startedAtMs: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const nowMs = yield* Clock.currentTimeMillis
    const now = new Date(nowMs).toISOString()
    const attempt = d.attempts + 1
    const ok = r.status !== null && r.status >= 200 && r.status < 300
    const gone = r.status === 410
    const retryAfterS = r.status === 429 || r.status === 503 ? parseRetryAfter(r.retryAfter, nowMs) : undefined
    const delay = ok || gone ? null : retryDelayMs(attempt - d.round_start, yield* Random.next, retryAfterS)
    const outcome = ok ? "succeeded" : gone ? "gone" : delay !== null ? "retry" : "dead"
    yield* sql.withTransaction(Effect.gen(function* () {
      yield* sql`INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, error, latency_ms)
                 VALUES (${d.id}, ${attempt}, ${new Date(startedAtMs).toISOString()}, ${r.status}, ${r.error}, ${r.latencyMs})`
      if (outcome === "retry") {
        yield* sql`UPDATE webhook_deliveries SET attempts = ${attempt}, last_status_code = ${r.status}, last_error = ${r.error},
                   next_attempt_at = ${new Date(nowMs + delay!).toISOString()} WHERE id = ${d.id}`
        return
      }
      yield* sql`UPDATE webhook_deliveries SET attempts = ${attempt}, last_status_code = ${r.status}, last_error = ${r.error},
                 status = ${ok ? "succeeded" : "dead"}, finished_at = ${now}, next_attempt_at = NULL WHERE id = ${d.id}`
      if (ok) {
        yield* sql`UPDATE webhook_subscriptions SET consecutive_failures = 0 WHERE id = ${d.subscription_id} AND consecutive_failures <> 0`
      } else if (gone) {
        yield* sql`UPDATE webhook_subscriptions SET is_enabled = false, disabled_reason = 'gone', disabled_at = ${now}, updated_at = ${now}
                   WHERE id = ${d.subscription_id} AND is_enabled`
      } else {
        yield* sql`UPDATE webhook_subscriptions SET consecutive_failures = consecutive_failures + 1,
                     is_enabled = CASE WHEN consecutive_failures + 1 >= ${DISABLE_AFTER_FAILURES} THEN false ELSE is_enabled END,
                     disabled_reason = CASE WHEN consecutive_failures + 1 >= ${DISABLE_AFTER_FAILURES} AND is_enabled THEN 'failures' ELSE disabled_reason END,
                     disabled_at = CASE WHEN consecutive_failures + 1 >= ${DISABLE_AFTER_FAILURES} AND is_enabled THEN ${now}::timestamptz ELSE disabled_at END
                   WHERE id = ${d.subscription_id}`
      }
    }))
    yield* Metric.increment(Metric.tagged(webhookDeliveries, "outcome", outcome))
    return outcome
  })

/** Signs and sends one claimed delivery, then records the attempt. */
export const deliverOne = (d: ClaimedDelivery, s: DispatchSettings) =>
  Effect.gen(function* () {
    const startedAtMs = yield* Clock.currentTimeMillis
    const target = yield* Effect.either(checkTargetUrl(d.url, s.allowPrivateTargets))
    let result: AttemptResult
    if (target._tag === "Left") {
      result = { status: null, error: target.left, retryAfter: null, latencyMs: 0 }
    } else {
      const secret = decryptSecret(Buffer.from(d.secret_enc), s.masterKey)
      const headers = {
        "Content-Type": "application/json",
        "User-Agent": "road-data-webhooks/1",
        ...signatureHeaders(secret, d.id, Math.floor(startedAtMs / 1000), d.body)
      }
      result = yield* Effect.promise(() => post(d.url, headers, d.body, s.timeoutMs))
    }
    return yield* recordAttempt(d, result, startedAtMs)
  })

/** One pass: claim what is due and deliver it, `concurrency` at a time. Returns how many were tried. */
export const dispatchDue = (s: DispatchSettings, limit: number, concurrency: number) =>
  Effect.gen(function* () {
    const due = yield* claimDue(limit, s.leaseMs)
    yield* Effect.forEach(due, (d) => deliverOne(d, s), { concurrency, discard: true })
    return due.length
  })
