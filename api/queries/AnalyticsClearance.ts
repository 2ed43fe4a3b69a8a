import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { clearedWhere, type FactFilters, factWhere } from "./AnalyticsFacts.js"

export interface ClearanceRow {
  readonly jurisdiction: string
  readonly event_type: string
  readonly total_events: number
  readonly p50_minutes: number
  readonly p95_minutes: number
  readonly avg_minutes: number
}

/**
 * Minutes from start_time (first report when the agency gave none) to the archive, per
 * jurisdiction × event type, over the events cleared among those reported in the window.
 * Percentiles are continuous (linear interpolation between the two nearest ranks, as
 * PostgreSQL percentile_cont and numpy's default).
 */
export const clearance = (f: FactFilters, includeStale: boolean) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<ClearanceRow>`
    SELECT a.jurisdiction, a.type AS event_type, count(*)::int AS total_events,
           round(percentile_cont(0.5) WITHIN GROUP (ORDER BY a.clearance_minutes)::numeric, 2)::float8 AS p50_minutes,
           round(percentile_cont(0.95) WITHIN GROUP (ORDER BY a.clearance_minutes)::numeric, 2)::float8 AS p95_minutes,
           round(avg(a.clearance_minutes)::numeric, 2)::float8 AS avg_minutes
    FROM analytics_events a
    WHERE ${factWhere(sql, f)} AND ${clearedWhere(sql, includeStale)}
    GROUP BY 1, 2 ORDER BY 1, 2`
  )
