import { SqlClient } from "@effect/sql"
import { Clock, Effect, Metric, Random } from "effect"
import { decryptSecret } from "../../../shared/webhooks/secrets.js"
import { type AttemptResult, sendSigned } from "../../../shared/webhooks/send.js"
import { webhookDeliveries } from "./metrics.js"
import { currentTraceparent, spanFrom, tracingOn } from "../../../shared/observability/Tracing.js"
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
  /** the trace context of the change it was made for, when traced */
  readonly traceparent: string | null
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
      RETURNING d.id, d.subscription_id, d.body, d.attempts, d.round_start, s.url, s.secret_enc, d.traceparent`
  })

export interface Attempted {
  readonly delivery: ClaimedDelivery
  readonly result: AttemptResult
  readonly startedAtMs: number
}

type Outcome = "succeeded" | "retry" | "dead" | "gone"

/**
 * Records attempts and moves each delivery on: succeeded; retried after 10/30/90 s ± 10 % (or a
 * longer Retry-After on 429/503); dead once the retries are spent. A dead delivery counts toward
 * its subscription's consecutive failures (10 disable it), a success resets them, a 410 disables
 * it at once. Many attempts are written in one transaction of set-based statements, so the
 * senders are not held up by a round trip per delivery.
 */
export const recordAttempts = (batch: ReadonlyArray<Attempted>) =>
  Effect.gen(function* () {
    if (batch.length === 0) return [] as Array<Outcome>
    const sql = yield* SqlClient.SqlClient
    const nowMs = yield* Clock.currentTimeMillis
    const now = new Date(nowMs).toISOString()
    const attempts: Array<unknown> = []
    const updates: Array<unknown> = []
    const outcomes: Array<Outcome> = []
    // per subscription, in completion order: was there a success, how many deaths after the last one, a 410
    const subs = new Map<string, { reset: boolean; dead: number; gone: boolean }>()
    for (const { delivery: d, result: r, startedAtMs } of batch) {
      const attempt = d.attempts + 1
      const ok = r.status !== null && r.status >= 200 && r.status < 300
      const gone = r.status === 410
      const retryAfterS = r.status === 429 || r.status === 503 ? parseRetryAfter(r.retryAfter, nowMs) : undefined
      const delay = ok || gone ? null : retryDelayMs(attempt - d.round_start, yield* Random.next, retryAfterS)
      const outcome: Outcome = ok ? "succeeded" : gone ? "gone" : delay !== null ? "retry" : "dead"
      outcomes.push(outcome)
      attempts.push({
        delivery_id: d.id,
        attempt,
        started_at: new Date(startedAtMs).toISOString(),
        status_code: r.status,
        error: r.error,
        latency_ms: r.latencyMs
      })
      updates.push({
        id: d.id,
        attempts: attempt,
        status_code: r.status,
        error: r.error,
        status: outcome === "retry" ? "pending" : outcome === "succeeded" ? "succeeded" : "dead",
        next_attempt_at: outcome === "retry" ? new Date(nowMs + delay!).toISOString() : null,
        finished_at: outcome === "retry" ? null : now
      })
      if (outcome === "retry") continue
      const s = subs.get(d.subscription_id) ?? { reset: false, dead: 0, gone: false }
      if (outcome === "succeeded") Object.assign(s, { reset: true, dead: 0 })
      else if (outcome === "dead") s.dead++
      else s.gone = true
      subs.set(d.subscription_id, s)
    }
    yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`
        INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, error, latency_ms)
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(attempts)}::jsonb)
          AS x(delivery_id text, attempt int, started_at timestamptz, status_code int, error text, latency_ms int)`
        yield* sql`
        UPDATE webhook_deliveries d SET attempts = x.attempts, last_status_code = x.status_code, last_error = x.error,
          status = x.status, next_attempt_at = x.next_attempt_at, finished_at = x.finished_at
        FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb)
          AS x(id text, attempts int, status_code int, error text, status text, next_attempt_at timestamptz, finished_at timestamptz)
        WHERE d.id = x.id`
        const changed = [...subs.entries()]
          .filter(([, s]) => s.gone || s.dead > 0 || s.reset)
          .map(([id, s]) => ({ id, reset: s.reset, dead: s.dead, gone: s.gone }))
        if (changed.length === 0) return
        yield* sql`
        WITH x AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) AS x(id text, reset boolean, dead int, gone boolean)),
        n AS (SELECT s.id, x.gone, CASE WHEN x.reset THEN x.dead ELSE s.consecutive_failures + x.dead END AS failures
              FROM webhook_subscriptions s JOIN x ON x.id = s.id)
        UPDATE webhook_subscriptions s SET consecutive_failures = n.failures,
          is_enabled = s.is_enabled AND NOT n.gone AND n.failures < ${DISABLE_AFTER_FAILURES},
          disabled_reason = CASE WHEN s.is_enabled AND n.gone THEN 'gone'
                                 WHEN s.is_enabled AND n.failures >= ${DISABLE_AFTER_FAILURES} THEN 'failures' ELSE s.disabled_reason END,
          disabled_at = CASE WHEN s.is_enabled AND (n.gone OR n.failures >= ${DISABLE_AFTER_FAILURES}) THEN ${now}::timestamptz ELSE s.disabled_at END,
          updated_at = CASE WHEN s.is_enabled AND (n.gone OR n.failures >= ${DISABLE_AFTER_FAILURES}) THEN ${now}::timestamptz ELSE s.updated_at END
        FROM n WHERE n.id = s.id AND (s.consecutive_failures <> n.failures OR n.gone)`
      })
    )
    for (const o of outcomes) yield* Metric.increment(Metric.tagged(webhookDeliveries, "outcome", o))
    return outcomes
  })

/** Signs and sends one claimed delivery; the attempt is recorded by the caller. */
export const attemptOne = (d: ClaimedDelivery, s: DispatchSettings) =>
  Effect.gen(function* () {
    const startedAtMs = yield* Clock.currentTimeMillis
    let secret: string
    try {
      secret = decryptSecret(Buffer.from(d.secret_enc), s.masterKey)
    } catch {
      // nothing can be signed: fail the attempt (and so, in time, the delivery) instead of the sender
      return {
        delivery: d,
        result: {
          status: null,
          error: "signing secret cannot be decrypted: was WEBHOOK_SECRET_KEY changed?",
          retryAfter: null,
          latencyMs: 0
        },
        startedAtMs
      } satisfies Attempted
    }
    // the connection itself refuses non-public addresses (send.ts): no separate DNS check per attempt
    const target = { url: d.url, secret, timeoutMs: s.timeoutMs, allowPrivate: s.allowPrivateTargets }
    const traceparent = yield* currentTraceparent
    const result = yield* Effect.promise(() =>
      sendSigned(target, d.id, Math.floor(startedAtMs / 1000), d.body, traceparent)
    )
    if (tracingOn)
      yield* Effect.annotateCurrentSpan({
        "http.response.status_code": result.status ?? 0,
        ...(result.error ? { error: result.error } : {})
      })
    const line = `webhook attempt ${d.attempts + 1} of delivery ${d.id}: ${result.status ?? "no answer"}${result.error ? ` (${result.error})` : ""} in ${result.latencyMs} ms`
    const ok = result.status !== null && result.status >= 200 && result.status < 300
    yield* (ok ? Effect.logDebug(line) : Effect.logInfo(line)).pipe(
      Effect.annotateLogs({ subscription: d.subscription_id, delivery: d.id })
    )
    return { delivery: d, result, startedAtMs } satisfies Attempted
  }).pipe(
    spanFrom("webhook attempt", d.traceparent ?? undefined, {
      kind: "client",
      attributes: { delivery_id: d.id, subscription_id: d.subscription_id, attempt: d.attempts + 1 }
    })
  )

/** One pass: claim what is due and deliver it, `concurrency` at a time. Returns how many were tried. */
export const dispatchDue = (s: DispatchSettings, limit: number, concurrency: number) =>
  Effect.gen(function* () {
    const due = yield* claimDue(limit, s.leaseMs)
    const attempted = yield* Effect.forEach(due, (d) => attemptOne(d, s), { concurrency })
    yield* recordAttempts(attempted)
    return due.length
  })
