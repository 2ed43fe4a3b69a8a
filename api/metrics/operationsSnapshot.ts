import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { Redis } from "../../shared/db/Redis.js"
import { readCircuits } from "../../shared/sources/pollState.js"
import { nowMillis } from "../../shared/time/Now.js"
import { stageLag } from "../queries/SourceStatus.js"
import { probe } from "../routes/health.js"

/** Each read's time limit: the probes' own. */
const READ_TIMEOUT = "2 seconds"

/**
 * What an operator's alerts ask of the whole system, read at scrape time by whichever API worker
 * is scraped: whether Postgres and Redis answer (as /health probes them), each source's circuit,
 * webhook subscriptions switched off by the dispatcher, and how far behind each stage is. A part
 * whose store is down is left out (its series vanish; `dependency_up` says why), so a scrape
 * never fails because of what it reports on.
 */
export const operationsSnapshot = Effect.gen(function* () {
  const now = yield* nowMillis
  const [postgres, redis] = yield* Effect.all(
    [
      probe(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`)),
      probe(Effect.flatMap(Redis, (r) => r.use("ping", (c) => c.ping())))
    ],
    { concurrency: 2 }
  )
  const sql = yield* SqlClient.SqlClient
  // a store that goes away after its probe would hold the scrape (Redis queues commands until it
  // is back): every read has the probe's own time limit, and its series are left out past it
  const within = <A, E, R>(read: Effect.Effect<A, E, R>, none: A) =>
    read.pipe(
      Effect.timeout(READ_TIMEOUT),
      Effect.orElseSucceed(() => none)
    )
  const sources = postgres === "ok" ? yield* within(sql<{ id: string }>`SELECT id FROM sources ORDER BY id`, []) : []
  const circuits = redis === "ok" && sources.length > 0 ? yield* within(readCircuits(sources.map((s) => s.id)), []) : []
  const disabled =
    postgres === "ok"
      ? yield* within(
          sql<{ reason: string; n: number }>`
        SELECT COALESCE(disabled_reason, 'owner') AS reason, count(*)::int AS n FROM webhook_subscriptions WHERE NOT is_enabled GROUP BY 1`,
          []
        )
      : []
  const lag = redis === "ok" ? yield* within(stageLag(now), []) : []
  return {
    up: { postgres: postgres === "ok", redis: redis === "ok" },
    circuits: circuits.map((c, i) => ({
      source: sources[i].id,
      open: Option.match(c, { onNone: () => false, onSome: (s) => s.openUntil > now })
    })),
    // every reason is present, 0 when none: an alert on the count needs the series to exist
    disabled: ["failures", "gone", "owner"].map((reason) => ({
      reason,
      n: disabled.find((d) => d.reason === reason)?.n ?? 0
    })),
    lag: lag.flatMap((g) => (g.behind_seconds === null ? [] : [{ group: g.group, seconds: g.behind_seconds }])),
    backlog: lag.map((g) => ({ group: g.group, messages: g.lag_messages + g.pending }))
  }
})
export type OperationsSnapshot = Effect.Effect.Success<typeof operationsSnapshot>
