import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Where a change's time went between `from` and `to`, read back from the rows the pipeline wrote,
 * for bench:scale. What users feel: from the poll that saw a change (its start) to the row being
 * queryable, and its parts (poll → emitted to the stream: fetch, decode, diff, commit; emitted →
 * written). A delivery's way (`received`: delivery id → when the bench's receiver had it): poll →
 * emitted → materialized (when the event row still holds that change) → queued as a delivery (the
 * webhooks group matched it) → first attempt started → received.
 */
export const changeLatency = (from: Date, to: Date, received: ReadonlyMap<string, number>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const lagRows = yield* sql<{ poll_ms: number; stream_ms: number }>`
      SELECT extract(epoch FROM (emitted_at - last_updated)) * 1000 AS poll_ms,
             extract(epoch FROM (materialized_at - emitted_at)) * 1000 AS stream_ms
      FROM events WHERE materialized_at BETWEEN ${from} AND ${to} AND archived_at IS NULL`
    const ids = [...received.keys()]
    const deliveries =
      ids.length === 0
        ? []
        : yield* sql<{
            id: string
            at: string
            emitted: string | null
            materialized: string | null
            queued: string
            attempted: string | null
          }>`
      SELECT d.id, h.changed_at AS at, e.emitted_at AS emitted, e.materialized_at AS materialized, d.created_at AS queued,
             (SELECT min(a.started_at) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempted
      FROM webhook_deliveries d JOIN event_history h ON h.change_id = d.change_ids[1]
      LEFT JOIN events e ON e.id = h.event_id AND e.version = split_part(h.change_id, ':', 2)::bigint AND e.archived_at IS NULL
      WHERE d.id = ANY(${ids})`
    const whole = deliveries.filter((d) => d.emitted !== null && d.materialized !== null && d.attempted !== null)
    const ms = (a: string | null, b: string | null) => Date.parse(b!) - Date.parse(a!)
    return {
      pollMs: lagRows.map((r) => Number(r.poll_ms)),
      streamMs: lagRows.map((r) => Number(r.stream_ms)),
      lags: lagRows.map((r) => Number(r.poll_ms) + Number(r.stream_ms)),
      latency: deliveries.map((d) => received.get(d.id)! - Date.parse(d.at)).filter((x) => Number.isFinite(x)),
      split: {
        poll_to_emitted: whole.map((d) => ms(d.at, d.emitted)),
        emitted_to_materialized: whole.map((d) => ms(d.emitted, d.materialized)),
        materialized_to_queued: whole.map((d) => ms(d.materialized, d.queued)),
        queued_to_sent: whole.map((d) => ms(d.queued, d.attempted)),
        sent_to_received: whole.map((d) => received.get(d.id)! - Date.parse(d.attempted!))
      }
    }
  })
