import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schedule } from "effect"
import { nowIso } from "../../../shared/time/Now.js"

/**
 * Rebuilds what is held per jurisdiction and type. A pair that held rows once keeps its entry
 * at row_count 0 afterwards, so "covered but empty" stays distinguishable from "never held"
 * (SPEC §2.5). Active rows count; `last_nonzero_at` is the last rebuild that found any.
 */
export const rebuildCoverage = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.withTransaction(Effect.gen(function* () {
    yield* sql`SELECT pg_advisory_xact_lock(7311512)`
    const now = yield* nowIso
    yield* sql`
      WITH held AS (
        SELECT jurisdiction, 'feature' AS kind, feature_type AS type, count(*) FILTER (WHERE is_active) AS n,
               max(last_updated) FILTER (WHERE is_active) AS latest
        FROM features GROUP BY jurisdiction, feature_type
        UNION ALL
        SELECT jurisdiction, 'event', type, count(*) FILTER (WHERE status = 'active'),
               max(last_updated) FILTER (WHERE status = 'active')
        FROM events GROUP BY jurisdiction, type
      ), merged AS (
        SELECT COALESCE(h.jurisdiction, c.jurisdiction) AS jurisdiction, COALESCE(h.kind, c.kind) AS kind,
               COALESCE(h.type, c.type) AS type, COALESCE(h.n, 0) AS n, h.latest
        FROM held h FULL JOIN coverage c ON c.jurisdiction = h.jurisdiction AND c.kind = h.kind AND c.type = h.type
      )
      INSERT INTO coverage (jurisdiction, kind, type, row_count, latest_data_at, last_nonzero_at, rebuilt_at)
      SELECT jurisdiction, kind, type, n, latest, CASE WHEN n > 0 THEN ${now}::timestamptz END, ${now}::timestamptz FROM merged
      ON CONFLICT (jurisdiction, kind, type) DO UPDATE SET
        row_count = excluded.row_count,
        latest_data_at = COALESCE(excluded.latest_data_at, coverage.latest_data_at),
        last_nonzero_at = COALESCE(excluded.last_nonzero_at, coverage.last_nonzero_at),
        rebuilt_at = excluded.rebuilt_at`
  }))
)

export const CoverageLive = Layer.scopedDiscard(
  Effect.forkScoped(
    rebuildCoverage.pipe(
      Effect.catchAll((e) => Effect.logWarning(`coverage rebuild failed: ${e.message}`)),
      Effect.repeat(Schedule.spaced("30 seconds"))
    )
  )
)
