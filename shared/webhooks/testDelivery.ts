import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { nowMillis } from "../time/Now.js"
import { testItem } from "./payloads.js"
import { postWebhook, signedHeaders } from "./send.js"

/** A test delivery as sent and as the receiver answered: what the subscription page shows. */
export interface TestDelivery {
  readonly delivery_id: string
  readonly sent_at: string
  readonly url: string
  readonly request_headers: Readonly<Record<string, string>>
  readonly request_body: string
  readonly delivered: boolean
  readonly status_code: number | null
  /** the receiver's answer, its first 2 KB */
  readonly response_body: string | null
  readonly latency_ms: number
  readonly error: string | null
}

/**
 * Sends a signed test event to a subscription now (never a recorded delivery: no retries, no
 * failure count) and keeps it, as sent and answered, as the subscription's last test.
 */
export const sendTestDelivery = (
  subscriptionId: string,
  target: { readonly url: string; readonly secret: string; readonly timeoutMs: number; readonly allowPrivate: boolean }
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = yield* nowMillis
    const deliveryId = `whd_test_${randomBytes(9).toString("base64url")}`
    const body = JSON.stringify(testItem(new Date(now).toISOString()))
    const headers = signedHeaders(target.secret, deliveryId, Math.floor(now / 1000), body)
    const r = yield* Effect.promise(() =>
      postWebhook(target.url, headers, body, target.timeoutMs, target.allowPrivate, true)
    )
    const test: TestDelivery = {
      delivery_id: deliveryId,
      sent_at: new Date(now).toISOString(),
      url: target.url,
      request_headers: headers,
      request_body: body,
      delivered: r.error === null,
      status_code: r.status,
      response_body: r.responseBody ?? null,
      latency_ms: r.latencyMs,
      error: r.error
    }
    yield* sql`UPDATE webhook_subscriptions SET last_test = ${JSON.stringify(test)}::jsonb WHERE id = ${subscriptionId}`
    return test
  })

/** The subscription's last test, or null when none was sent. */
export const lastTestDelivery = (customerId: number, subscriptionId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{
        last_test: TestDelivery | null
      }>`SELECT last_test FROM webhook_subscriptions WHERE customer_id = ${customerId} AND id = ${subscriptionId}`
  )
