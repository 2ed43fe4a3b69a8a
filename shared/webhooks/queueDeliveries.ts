import { SqlClient } from "@effect/sql"
import { Effect, FiberRef } from "effect"
import { changeTraces } from "../observability/Tracing.js"

/** Rows per INSERT: the parameters stay well under Postgres' limit. */
const CHUNK = 2000

export interface ImmediateDelivery {
  readonly id: string
  readonly subscription_id: string
  readonly event: string
  readonly change_ids: ReadonlyArray<string>
  readonly body: string
}

export interface BatchItem {
  readonly subscription_id: string
  readonly item_id: string
  readonly change_id: string
  readonly item: unknown
}

/**
 * Queues deliveries for the senders: immediate ones as pending deliveries due now, batched ones
 * as items of their subscription's open window. Ids are the caller's and stable, so queueing the
 * same thing twice adds nothing.
 */
export const queueDeliveries = (
  immediate: ReadonlyArray<ImmediateDelivery>,
  batched: ReadonlyArray<BatchItem>,
  now: string
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // each delivery keeps the trace context its change arrived with (empty unless tracing is on)
    const traces = yield* FiberRef.get(changeTraces)
    const rows =
      traces.size === 0 ? immediate : immediate.map((d) => ({ ...d, traceparent: traces.get(d.change_ids[0]) }))
    for (let i = 0; i < rows.length; i += CHUNK) {
      yield* sql`
        INSERT INTO webhook_deliveries (id, subscription_id, event, change_ids, body, status, created_at, next_attempt_at, traceparent)
        SELECT x.id, x.subscription_id, x.event, x.change_ids, x.body, 'pending', ${now}, ${now}, x.traceparent
        FROM jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + CHUNK))}::jsonb)
          AS x(id text, subscription_id text, event text, change_ids text[], body text, traceparent text)
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
