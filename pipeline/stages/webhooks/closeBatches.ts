import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { createHash } from "node:crypto"
import {
  BATCH_MAX_EVENTS,
  batchBody,
  type RouteWarningItem,
  type WebhookItem
} from "../../../shared/webhooks/payloads.js"

/**
 * Closes every batch window that has ended: its items become deliveries of at most 100 events
 * each (several POSTs for a longer queue, all in the same window), in one transaction per
 * subscription, so a crash leaves either the items or the deliveries, never both or neither.
 * A window opens with the first item queued for the subscription and lasts batch_window_seconds.
 */
export const closeDueBatches = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const nowMs = yield* Clock.currentTimeMillis
  const now = new Date(nowMs).toISOString()
  const due = yield* sql<{ subscription_id: string; window_s: number; started_at: string }>`
    SELECT i.subscription_id, COALESCE(s.batch_window_seconds, 0) AS window_s, min(i.queued_at) AS started_at
    FROM webhook_batch_items i JOIN webhook_subscriptions s ON s.id = i.subscription_id
    GROUP BY i.subscription_id, s.batch_window_seconds
    HAVING min(i.queued_at) + make_interval(secs => COALESCE(s.batch_window_seconds, 0)) <= ${now}`
  let made = 0
  for (const d of due) {
    const endedAt = new Date(Date.parse(d.started_at) + d.window_s * 1000).toISOString()
    made += yield* sql.withTransaction(
      Effect.gen(function* () {
        const items = yield* sql<{ item_id: string; change_id: string; item: WebhookItem | RouteWarningItem }>`
        SELECT item_id, change_id, item FROM webhook_batch_items
        WHERE subscription_id = ${d.subscription_id} AND queued_at <= ${endedAt}
        ORDER BY seq FOR UPDATE SKIP LOCKED`
        if (items.length === 0) return 0
        const rows = []
        for (let i = 0; i < items.length; i += BATCH_MAX_EVENTS) {
          const chunk = items.slice(i, i + BATCH_MAX_EVENTS)
          const id =
            "whd_" +
            createHash("sha256")
              .update(`${d.subscription_id}|batch|${chunk.map((c) => c.item_id).join(",")}`)
              .digest("base64url")
              .slice(0, 22)
          rows.push({
            id,
            subscription_id: d.subscription_id,
            change_ids: [...new Set(chunk.map((c) => c.change_id))],
            body: batchBody(
              d.window_s,
              d.started_at,
              endedAt,
              chunk.map((c) => c.item)
            )
          })
        }
        yield* sql`
        INSERT INTO webhook_deliveries (id, subscription_id, event, change_ids, body, status, created_at, next_attempt_at)
        SELECT x.id, x.subscription_id, 'batch', x.change_ids, x.body, 'pending', ${now}, ${now}
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, subscription_id text, change_ids text[], body text)
        ON CONFLICT (id) DO NOTHING`
        yield* sql`DELETE FROM webhook_batch_items WHERE subscription_id = ${d.subscription_id} AND item_id = ANY(${items.map((i) => i.item_id)})`
        return rows.length
      })
    )
  }
  return made
})
