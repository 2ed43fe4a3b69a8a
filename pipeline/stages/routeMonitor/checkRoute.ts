import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Evaluation } from "../../../shared/routing/plan/evaluation.js"
import type { RouteTrack } from "../../../shared/routing/engine/RoutingEngine.js"
import { criticalWarnings } from "../../../shared/routing/saved/criticalWarnings.js"
import { deliveryId, routeWarningItem } from "../../../shared/webhooks/payloads.js"
import { type BatchItem, type ImmediateDelivery, queueDeliveries } from "../../../shared/webhooks/queueDeliveries.js"

interface MonitoredRow {
  readonly customer_id: number
  readonly customer_route_id: string | null
  readonly evaluation: Evaluation
  readonly track: RouteTrack | null
}

/**
 * Evaluates one monitored route's primary route against the read model and announces each
 * critical warning it did not have before as a signed `route.warning` to the owner's enabled
 * subscriptions (docs/api/webhooks.md#route-warning), through the ordinary deliveries: the same
 * retries, history and batching. The known set is read under the route's row lock and written
 * with the deliveries in one transaction, so two checks of one route (two messages naming it,
 * two monitors) announce a warning once, and a crash repeats the check without announcing
 * anything twice. Answers the number of warnings announced.
 */
export const checkRoute = (routeId: string, nowMs: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = new Date(nowMs).toISOString()
    const [row] = yield* sql<MonitoredRow>`
      SELECT customer_id, customer_route_id, evaluation, engine_routes->0 AS track
      FROM saved_routes WHERE id = ${routeId} AND monitor`
    if (!row || row.track === null) return 0
    const critical = yield* criticalWarnings(row.evaluation, row.track, nowMs)
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        // a route deleted or unmonitored meanwhile announces nothing
        const [locked] = yield* sql<{ known_critical: ReadonlyArray<string>; check_seq: string }>`
        SELECT known_critical, check_seq FROM saved_routes WHERE id = ${routeId} AND monitor FOR UPDATE`
        if (!locked) return 0
        const known = new Set(locked.known_critical)
        const fresh = critical.filter((c) => !known.has(c.key))
        const seq = Number(locked.check_seq) + 1
        yield* sql`
        UPDATE saved_routes SET known_critical = ${critical.map((c) => c.key)}, checked_at = ${now}, check_seq = ${seq}
        WHERE id = ${routeId}`
        if (fresh.length === 0) return 0
        const subs = yield* sql<{ id: string; batch_window_seconds: number | null }>`
        SELECT id, batch_window_seconds FROM webhook_subscriptions WHERE customer_id = ${row.customer_id} AND is_enabled`
        const check = `route:${routeId}:${seq}`
        const immediate: Array<ImmediateDelivery> = []
        const batched: Array<BatchItem> = []
        for (const s of subs) {
          for (const { key, warning } of fresh) {
            const item = routeWarningItem(now, routeId, row.customer_route_id, warning)
            const id = deliveryId(s.id, check, key)
            if (s.batch_window_seconds === null)
              immediate.push({
                id,
                subscription_id: s.id,
                event: "route.warning",
                change_ids: [check],
                body: JSON.stringify(item)
              })
            else batched.push({ subscription_id: s.id, item_id: id, change_id: check, item })
          }
        }
        yield* queueDeliveries(immediate, batched, now)
        return fresh.length
      })
    )
  })
