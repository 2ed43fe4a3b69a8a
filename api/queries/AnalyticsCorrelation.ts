import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { clearedWhere, type FactFilters, factWhere } from "./AnalyticsFacts.js"

export interface CorrelationRow {
  readonly precipitation: string
  readonly road_surface: string
  readonly total_events: number
  readonly by_severity: Record<string, number>
  readonly severity_share: Record<string, number>
  readonly avg_clearance_minutes: number | null
}

/**
 * Events with a weather snapshot, by the snapshot's precipitation × road surface ("unknown"
 * where the station did not report it), busiest first: counts and shares by severity (shares
 * rounded to 4 decimals) and the average clearance of the cleared ones.
 */
export const weatherCorrelation = (f: FactFilters, includeStale: boolean, severities: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      precipitation: string
      road_surface: string
      severity: string
      n: number
      cleared_sum: number | null
      cleared_n: number
    }>`
      SELECT a.weather_precipitation AS precipitation, a.weather_road_surface AS road_surface, a.severity, count(*)::int AS n,
             sum(a.clearance_minutes) FILTER (WHERE ${clearedWhere(sql, includeStale)}) AS cleared_sum,
             (count(*) FILTER (WHERE ${clearedWhere(sql, includeStale)}))::int AS cleared_n
      FROM analytics_events a
      WHERE ${factWhere(sql, f)} AND a.weather_precipitation IS NOT NULL
      GROUP BY 1, 2, 3`
    const groups = new Map<
      string,
      { precipitation: string; road_surface: string; counts: Map<string, number>; sum: number; cleared: number }
    >()
    for (const r of rows) {
      const key = `${r.precipitation}\u0000${r.road_surface}`
      const g = groups.get(key) ?? {
        precipitation: r.precipitation,
        road_surface: r.road_surface,
        counts: new Map(),
        sum: 0,
        cleared: 0
      }
      g.counts.set(r.severity, (g.counts.get(r.severity) ?? 0) + r.n)
      g.sum += r.cleared_sum ?? 0
      g.cleared += r.cleared_n
      groups.set(key, g)
    }
    const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places
    return [...groups.values()]
      .map((g): CorrelationRow => {
        const total = [...g.counts.values()].reduce((s, n) => s + n, 0)
        return {
          precipitation: g.precipitation,
          road_surface: g.road_surface,
          total_events: total,
          by_severity: Object.fromEntries(severities.map((s) => [s, g.counts.get(s) ?? 0])),
          severity_share: Object.fromEntries(severities.map((s) => [s, round((g.counts.get(s) ?? 0) / total, 4)])),
          avg_clearance_minutes: g.cleared > 0 ? round(g.sum / g.cleared, 2) : null
        }
      })
      .sort(
        (a, b) =>
          b.total_events - a.total_events ||
          a.precipitation.localeCompare(b.precipitation) ||
          a.road_surface.localeCompare(b.road_surface)
      )
  })
