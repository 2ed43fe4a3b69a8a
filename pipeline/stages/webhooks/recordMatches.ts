import { SqlClient } from "@effect/sql"
import { Clock, Duration, Effect } from "effect"
import type { Change, EventChange } from "../../../shared/domain/Change.js"
import { matchesFilter, type WebhookFilter } from "../../../shared/webhooks/filters.js"
import { deliveryId, webhookItems } from "../../../shared/webhooks/payloads.js"
import { type BatchItem, type ImmediateDelivery, queueDeliveries } from "./queueDeliveries.js"

interface SubscriptionRow extends WebhookFilter {
  readonly id: string
  readonly batch_window_seconds: number | null
  readonly dedupe: boolean
}

/** How long a dedupe subscription's event.created waits for the materializer before it goes out undeduplicated. */
const MATERIALIZED_WAIT = Duration.seconds(30)
const MATERIALIZED_POLL = Duration.millis(200)

/**
 * Created events that are linked duplicates: `represented_by` is set when another
 * source's report of the same event was materialized first, and so announced first. The links
 * are written in the materializer's transaction, so this waits (bounded) until the materializer
 * has written these events; past the bound a created event counts as new — a second
 * announcement is better than a lost one.
 */
const linkedDuplicates = (eventIds: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (eventIds.length === 0) return new Set<string>()
    const sql = yield* SqlClient.SqlClient
    const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(MATERIALIZED_WAIT)
    for (;;) {
      const rows = yield* sql<{ id: string; represented_by: string | null }>`SELECT id, represented_by FROM events WHERE id = ANY(${eventIds})`
      if (rows.length === eventIds.length || (yield* Clock.currentTimeMillis) >= deadline) {
        if (rows.length < eventIds.length) yield* Effect.logWarning(`webhook dedupe: ${eventIds.length - rows.length} created events not materialized after 30 s; announcing them anyway`)
        return new Set(rows.filter((r) => r.represented_by !== null).map((r) => r.id))
      }
      yield* Effect.sleep(MATERIALIZED_POLL)
    }
  })

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
      SELECT id, match_jurisdictions, types, sub_types, severities, causes, batch_window_seconds, dedupe
      FROM webhook_subscriptions WHERE is_enabled AND match_jurisdictions && ${jurisdictions}`
    if (subs.length === 0) return
    const created = (c: EventChange) => c.fields.some((f) => f.change_type === "created")
    const dedupeAsked = events.filter((c) => created(c) && subs.some((s) => s.dedupe && matchesFilter(s, c.keys)))
    const duplicates = yield* linkedDuplicates([...new Set(dedupeAsked.map((c) => c.event_id))])
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
          if (s.batch_window_seconds === null) immediate.push({ id, subscription_id: s.id, event: item.event, change_ids: [c.change_id], body: JSON.stringify(item) })
          else batched.push({ subscription_id: s.id, item_id: id, change_id: c.change_id, item })
        }
      }
    }
    yield* queueDeliveries(immediate, batched, now)
  })
