import { SqlClient } from "@effect/sql"
import { Duration, Effect } from "effect"
import { RoutingConfig } from "../../../shared/routing/RoutingConfig.js"
import { departingBy, type Evaluation, evaluateRoutes, featureTypesOf, warningKey } from "../../../shared/routing/plan/evaluation.js"
import { hazardRows } from "../../../shared/routing/hazards/hazardRows.js"
import type { RouteTrack } from "../../../shared/routing/engine/RoutingEngine.js"
import { purgeExpiredRoutes } from "../../../shared/routing/saved/savedRoutes.js"
import { nowMillis } from "../../../shared/time/Now.js"
import { deliveryId, routeWarningItem } from "../../../shared/webhooks/payloads.js"
import { type BatchItem, type ImmediateDelivery, queueDeliveries } from "./queueDeliveries.js"

/** Routes evaluated per pass, and how long one pass may hold them before another monitor may. */
const CLAIM = 20
const LEASE_MS = 120_000
const IDLE = Duration.seconds(1)

interface MonitoredRow {
  readonly id: string
  readonly customer_id: number
  readonly customer_route_id: string | null
  readonly evaluation: Evaluation
  readonly track: RouteTrack | null
  readonly known_critical: ReadonlyArray<string>
  readonly monitor: boolean
}

/**
 * Evaluates one monitored route's primary route against the read model and announces each
 * critical warning it did not have before as a signed `route.warning` to the owner's enabled
 * subscriptions (docs/api/webhooks.md#route-warning), through the ordinary deliveries: the same
 * retries, history and batching. The new known set, the deliveries and the clearing of the mark
 * are one transaction, so a crash repeats the check and never announces a warning twice.
 */
export const checkRoute = (routeId: string, mark: number, nowMs: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = new Date(nowMs).toISOString()
    const [row] = yield* sql<MonitoredRow>`
      SELECT id, customer_id, customer_route_id, evaluation, engine_routes->0 AS track, known_critical, monitor
      FROM saved_routes WHERE id = ${routeId}`
    const clear = sql`DELETE FROM route_rechecks WHERE route_id = ${routeId} AND mark <= ${mark}`
    if (!row || !row.monitor || row.track === null) return yield* Effect.as(clear, 0)
    const evaluation = departingBy({ ...row.evaluation, hos: undefined }, nowMs)
    const [primary] = yield* evaluateRoutes([row.track], evaluation, nowMs, yield* hazardRows(featureTypesOf(evaluation)))
    const critical = primary.warnings.filter((w) => w.severity === "critical")
    const known = new Set(row.known_critical)
    const fresh = critical.filter((w) => !known.has(warningKey(w)))
    return yield* sql.withTransaction(Effect.gen(function* () {
      // a route deleted or unmonitored meanwhile announces nothing
      const [updated] = yield* sql<{ check_seq: string }>`
        UPDATE saved_routes SET known_critical = ${critical.map(warningKey)}, checked_at = ${now}, check_seq = check_seq + 1
        WHERE id = ${routeId} AND monitor RETURNING check_seq`
      if (updated && fresh.length > 0) {
        const subs = yield* sql<{ id: string; batch_window_seconds: number | null }>`
          SELECT id, batch_window_seconds FROM webhook_subscriptions WHERE customer_id = ${row.customer_id} AND is_enabled`
        const check = `route:${routeId}:${updated.check_seq}`
        const immediate: Array<ImmediateDelivery> = []
        const batched: Array<BatchItem> = []
        for (const s of subs) {
          for (const w of fresh) {
            const item = routeWarningItem(now, routeId, row.customer_route_id, w)
            const id = deliveryId(s.id, check, warningKey(w))
            if (s.batch_window_seconds === null) immediate.push({ id, subscription_id: s.id, event: "route.warning", change_ids: [check], body: JSON.stringify(item) })
            else batched.push({ subscription_id: s.id, item_id: id, change_id: check, item })
          }
        }
        yield* queueDeliveries(immediate, batched, now)
      }
      yield* clear
      return updated ? fresh.length : 0
    }))
  })

/**
 * One pass: marks monitored routes not evaluated for the recheck interval (so hazards that come
 * into force with time are seen too), claims due rechecks under a lease, evaluates them, and
 * drops answers past their 30 minutes. Answers the number of routes claimed.
 */
export const monitorPass = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* RoutingConfig
  const nowMs = yield* nowMillis
  yield* sql`
    INSERT INTO route_rechecks (route_id, mark)
    SELECT id, nextval('route_recheck_marks') FROM (
      SELECT id FROM saved_routes WHERE monitor AND checked_at < ${new Date(nowMs - config.routeRecheckIntervalS * 1000).toISOString()}
      ORDER BY checked_at LIMIT 1000) r
    ON CONFLICT (route_id) DO NOTHING`
  const claimed = yield* sql<{ route_id: string; mark: string }>`
    UPDATE route_rechecks r SET leased_until = ${new Date(nowMs + LEASE_MS).toISOString()}
    FROM (SELECT route_id FROM route_rechecks WHERE leased_until IS NULL OR leased_until < ${new Date(nowMs).toISOString()}
          ORDER BY mark LIMIT ${CLAIM} FOR UPDATE SKIP LOCKED) c
    WHERE r.route_id = c.route_id RETURNING r.route_id, r.mark`
  yield* Effect.forEach(claimed, (c) =>
    checkRoute(c.route_id, Number(c.mark), nowMs).pipe(
      // its lease runs out and it is checked again
      Effect.catchAllCause((cause) => Effect.logError(`route monitor: checking ${c.route_id} failed`, cause))),
  { concurrency: 4, discard: true })
  yield* purgeExpiredRoutes(nowMs)
  return claimed.length
})

/** The monitor loop of the webhooks stage: at once while there is work, else once a second. */
export const runRouteMonitor = monitorPass.pipe(
  Effect.catchAllCause((cause) => Effect.logError("route monitor pass failed", cause).pipe(Effect.as(0))),
  Effect.flatMap((n) => (n < CLAIM ? Effect.sleep(IDLE) : Effect.void)),
  Effect.forever
)
