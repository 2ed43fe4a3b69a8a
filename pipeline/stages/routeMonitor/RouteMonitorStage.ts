import { SqlClient } from "@effect/sql"
import { Duration, Effect, Either, Layer } from "effect"
import { RecheckStream } from "../../../shared/bus/RedisStreams.js"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { RoutingConfig } from "../../../shared/routing/RoutingConfig.js"
import { purgeExpiredRoutes } from "../../../shared/routing/saved/savedRoutes.js"
import { nowMillis } from "../../../shared/time/Now.js"
import { defaultConsumerOptions, type MessageReader, runConsumerOf } from "../ConsumerLoop.js"
import { fromNowOn } from "../joinGroup.js"
import { checkRoute } from "./checkRoute.js"

export const ROUTE_MONITOR_GROUP = "route-monitor"
/** Routes checked at once. */
const CONCURRENCY = 4
/** Routes the interval check takes per turn, and how long it rests when it found fewer. */
const DUE_BATCH = 20
const IDLE = Duration.seconds(1)

/** A recheck message: the id of a monitored route near what the materializer wrote. */
const routeIds: MessageReader<string> = {
  what: "route id",
  decode: (m) => (m.body === "" ? Either.left("no route id") : Either.right(m.body)),
  idOf: (id, m) => `${id}@${m.id}`
}

/** Checks each named route once, whatever number of messages named it. */
export const checkRoutes = (ids: ReadonlyArray<string>) =>
  Effect.flatMap(nowMillis, (nowMs) =>
    Effect.forEach(new Set(ids), (id) => checkRoute(id, nowMs), { concurrency: CONCURRENCY, discard: true })
  )

/**
 * One turn of the interval check: takes monitored routes not evaluated for the recheck interval
 * (hazards that come into force with time appear without a change), their check time moved on
 * first so another monitor leaves them, and checks them; then drops answers past their 30
 * minutes. A monitor that dies meanwhile leaves them to the next interval. Answers the number taken.
 */
export const dueCheckTurn = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const { routeRecheckIntervalS } = yield* RoutingConfig
  const nowMs = yield* nowMillis
  const due = yield* sql<{ id: string }>`
    UPDATE saved_routes s SET checked_at = ${new Date(nowMs).toISOString()}
    FROM (SELECT id FROM saved_routes WHERE monitor AND checked_at < ${new Date(nowMs - routeRecheckIntervalS * 1000).toISOString()}
          ORDER BY checked_at LIMIT ${DUE_BATCH} FOR UPDATE SKIP LOCKED) d
    WHERE s.id = d.id RETURNING s.id`
  yield* Effect.forEach(
    due,
    (r) =>
      checkRoute(r.id, nowMs).pipe(
        Effect.catchAllCause((cause) => Effect.logError(`route monitor: checking ${r.id} failed`, cause))
      ),
    { concurrency: CONCURRENCY, discard: true }
  )
  yield* purgeExpiredRoutes(nowMs)
  return due.length
})

const runDueChecks = dueCheckTurn.pipe(
  Effect.catchAllCause((cause) => Effect.logError("route monitor: interval check failed", cause).pipe(Effect.as(0))),
  Effect.flatMap((n) => (n < DUE_BATCH ? Effect.sleep(IDLE) : Effect.void)),
  Effect.forever
)

/**
 * The route monitor stage (DESIGN.md): its consumer group reads the routes the materializer
 * published as near what it wrote and checks each for new critical warnings; beside it, the
 * interval check takes routes no change has named for a while. A failed check leaves its
 * message pending, to be read again.
 */
export const RouteMonitorLive = (consumer: string) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const options = {
        ...defaultConsumerOptions(ROUTE_MONITOR_GROUP, consumer),
        stream: RecheckStream,
        claimIdleMs: config.claimIdleMs,
        join: fromNowOn
      }
      yield* Effect.forkScoped(runConsumerOf(options, routeIds, checkRoutes))
      yield* Effect.forkScoped(runDueChecks)
    })
  )
