import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { clearedWhere, type FactFilters, factWhere } from "./AnalyticsFacts.js"

export interface CorridorRow {
  readonly road: string
  readonly jurisdiction: string
  readonly total_events: number
  readonly avg_clearance_minutes: number | null
  readonly incident_count: number
  readonly construction_count: number
}

/**
 * Events per road × jurisdiction, busiest first: an event counts once on each distinct road it
 * affects; the clearance average takes the cleared ones (null when none cleared).
 */
export const corridors = (f: FactFilters, includeStale: boolean, limit: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<CorridorRow>`
    SELECT r.road, a.jurisdiction, count(*)::int AS total_events,
           round((avg(a.clearance_minutes) FILTER (WHERE ${clearedWhere(sql, includeStale)}))::numeric, 2)::float8 AS avg_clearance_minutes,
           (count(*) FILTER (WHERE a.type = 'incident'))::int AS incident_count,
           (count(*) FILTER (WHERE a.type = 'construction'))::int AS construction_count
    FROM analytics_events a CROSS JOIN LATERAL (SELECT DISTINCT unnest(a.roads) AS road) r
    WHERE ${factWhere(sql, f)}
    GROUP BY 1, 2 ORDER BY total_events DESC, 1, 2 LIMIT ${limit}`
  )
