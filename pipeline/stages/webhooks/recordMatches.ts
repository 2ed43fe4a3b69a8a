import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import type { Change, EventChange } from "../../../shared/domain/Change.js"
import { matchesFilter, type WebhookFilter } from "../../../shared/webhooks/filters.js"
import { deliveryId, webhookItems } from "../../../shared/webhooks/payloads.js"
import { type BatchItem, type ImmediateDelivery, queueDeliveries } from "../../../shared/webhooks/queueDeliveries.js"

interface SubscriptionRow extends WebhookFilter {
  readonly id: string
  readonly batch_window_seconds: number | null
  readonly dedupe: boolean
}

/**
 * The `webhooks` group's apply step: every matching (subscription, change, webhook event) becomes
 * a pending delivery, or an item of the subscription's open batch, in Postgres — before the
 * stream message is acknowledged. Ids are derived from the change, so a message read twice
 * inserts nothing new. `duplicates`: created events the materializer linked to another
 * source's report that represents them (announced already), which a dedupe subscription skips.
 */
export const recordMatches = (changes: ReadonlyArray<Change>, duplicates: ReadonlySet<string> = new Set()) =>
  Effect.gen(function* () {
    const events = changes.filter((c): c is EventChange => c.kind === "event")
    if (events.length === 0) return
    const sql = yield* SqlClient.SqlClient
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const jurisdictions = [...new Set(events.map((c) => c.keys.jurisdiction))]
    const subs = yield* sql<SubscriptionRow>`
      SELECT id, match_jurisdictions, types, sub_types, severities, causes, batch_window_seconds, dedupe
      FROM webhook_subscriptions WHERE is_enabled AND match_jurisdictions && ${jurisdictions}`
    if (subs.length === 0) return
    const immediate: Array<ImmediateDelivery> = []
    const batched: Array<BatchItem> = []
    for (const c of events) {
      const items = webhookItems(c)
      if (items.length === 0) continue
      for (const s of subs) {
        if (!matchesFilter(s, c.keys)) continue
        for (const item of items) {
          if (s.dedupe && item.event === "event.created" && duplicates.has(c.event_id)) continue
          const id = deliveryId(s.id, c.change_id, item.event)
          if (s.batch_window_seconds === null)
            immediate.push({
              id,
              subscription_id: s.id,
              event: item.event,
              change_ids: [c.change_id],
              body: JSON.stringify(item)
            })
          else batched.push({ subscription_id: s.id, item_id: id, change_id: c.change_id, item })
        }
      }
    }
    yield* queueDeliveries(immediate, batched, now)
  })
