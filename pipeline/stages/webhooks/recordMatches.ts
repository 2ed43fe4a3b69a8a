import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import type { Change, EventChange } from "../../../shared/domain/Change.js"
import { matchesFilter, type WebhookFilter } from "../../../shared/webhooks/filters.js"
import { deliveryId, webhookItems } from "../../../shared/webhooks/payloads.js"

interface SubscriptionRow extends WebhookFilter {
  readonly id: string
  readonly batch_window_seconds: number | null
}

/** Rows per INSERT: the parameters stay well under Postgres' limit. */
const CHUNK = 2000

/**
 * The `webhooks` group's apply step: every matching (subscription, change, webhook event) becomes
 * a pending delivery, or an item of the subscription's open batch, in Postgres — before the
 * stream message is acknowledged. Ids are derived from the change, so a message read twice
 * inserts nothing new.
 */
export const recordMatches = (changes: ReadonlyArray<Change>) =>
  Effect.gen(function* () {
    const events = changes.filter((c): c is EventChange => c.kind === "event")
    if (events.length === 0) return
    const sql = yield* SqlClient.SqlClient
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const jurisdictions = [...new Set(events.map((c) => c.keys.jurisdiction))]
    const subs = yield* sql<SubscriptionRow>`
      SELECT id, match_jurisdictions, types, sub_types, severities, causes, batch_window_seconds
      FROM webhook_subscriptions WHERE is_enabled AND match_jurisdictions && ${jurisdictions}`
    if (subs.length === 0) return
    const immediate: Array<{ id: string; subscription_id: string; event: string; change_ids: Array<string>; body: string }> = []
    const batched: Array<{ subscription_id: string; item_id: string; change_id: string; item: unknown }> = []
    for (const c of events) {
      const items = webhookItems(c)
      if (items.length === 0) continue
      for (const s of subs) {
        if (!matchesFilter(s, c.keys)) continue
        for (const item of items) {
          const id = deliveryId(s.id, c.change_id, item.event)
          if (s.batch_window_seconds === null) immediate.push({ id, subscription_id: s.id, event: item.event, change_ids: [c.change_id], body: JSON.stringify(item) })
          else batched.push({ subscription_id: s.id, item_id: id, change_id: c.change_id, item })
        }
      }
    }
    for (let i = 0; i < immediate.length; i += CHUNK) {
      yield* sql`
        INSERT INTO webhook_deliveries (id, subscription_id, event, change_ids, body, status, created_at, next_attempt_at)
        SELECT x.id, x.subscription_id, x.event, x.change_ids, x.body, 'pending', ${now}, ${now}
        FROM jsonb_to_recordset(${JSON.stringify(immediate.slice(i, i + CHUNK))}::jsonb)
          AS x(id text, subscription_id text, event text, change_ids text[], body text)
        ON CONFLICT (id) DO NOTHING`
    }
    for (let i = 0; i < batched.length; i += CHUNK) {
      yield* sql`
        INSERT INTO webhook_batch_items (subscription_id, item_id, change_id, item, queued_at)
        SELECT x.subscription_id, x.item_id, x.change_id, x.item, ${now}
        FROM jsonb_to_recordset(${JSON.stringify(batched.slice(i, i + CHUNK))}::jsonb)
          AS x(subscription_id text, item_id text, change_id text, item jsonb)
        ON CONFLICT DO NOTHING`
    }
  })
