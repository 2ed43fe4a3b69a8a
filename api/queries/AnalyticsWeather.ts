import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Bbox } from "../http/QueryParams.js"
import { clearedWhere, type FactFilters, factWhere } from "./AnalyticsFacts.js"

export interface StationFilters {
  readonly jurisdictions?: ReadonlyArray<string> | undefined
  readonly bbox?: Bbox | undefined
  readonly includeInactive: boolean
  readonly limit: number
}

/** The latest reading of each station, by station id. */
export const latestReadings = (f: StationFilters) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
    SELECT station_id, name, jurisdiction, latitude, longitude, temperature, temperature_c, wind_speed, wind_direction,
           precipitation, road_surface, humidity, visibility, recorded_at, is_active
    FROM weather_readings w
    WHERE ${sql.and([
      f.includeInactive ? sql`TRUE` : sql`w.is_active`,
      f.jurisdictions ? sql`w.jurisdiction = ANY(${f.jurisdictions})` : sql`TRUE`,
      f.bbox ? sql`w.latitude BETWEEN ${f.bbox.minLat} AND ${f.bbox.maxLat} AND w.longitude BETWEEN ${f.bbox.minLng} AND ${f.bbox.maxLng}` : sql`TRUE`
    ])}
    ORDER BY station_id LIMIT ${f.limit}`)

/** An event's weather snapshot (SPEC §2.9), or undefined. */
export const eventWeather = (eventId: string) =>
  Effect.map(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
      SELECT id, event_id, station_id, created_at, reading_recorded_at, distance_km, temperature, temperature_c, humidity,
             precipitation, road_surface, visibility, wind_speed, wind_direction
      FROM event_weather_snapshots WHERE event_id = ${eventId}`),
    (rows) => rows[0]
  )

/** Whether analytics knows the event at all (a 404 says which of the two is missing). */
export const knownEvent = (eventId: string) =>
  Effect.map(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
      SELECT 1 FROM analytics_events WHERE event_id = ${eventId} AND created_at IS NOT NULL
      UNION ALL SELECT 1 FROM events WHERE id = ${eventId} LIMIT 1`),
    (rows) => rows.length > 0
  )

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
    const rows = yield* sql<{ precipitation: string; road_surface: string; severity: string; n: number; cleared_sum: number | null; cleared_n: number }>`
      SELECT a.weather_precipitation AS precipitation, a.weather_road_surface AS road_surface, a.severity, count(*)::int AS n,
             sum(a.clearance_minutes) FILTER (WHERE ${clearedWhere(sql, includeStale)}) AS cleared_sum,
             (count(*) FILTER (WHERE ${clearedWhere(sql, includeStale)}))::int AS cleared_n
      FROM analytics_events a
      WHERE ${factWhere(sql, f)} AND a.weather_precipitation IS NOT NULL
      GROUP BY 1, 2, 3`
    const groups = new Map<string, { precipitation: string; road_surface: string; counts: Map<string, number>; sum: number; cleared: number }>()
    for (const r of rows) {
      const key = `${r.precipitation}\u0000${r.road_surface}`
      const g = groups.get(key) ?? { precipitation: r.precipitation, road_surface: r.road_surface, counts: new Map(), sum: 0, cleared: 0 }
      g.counts.set(r.severity, (g.counts.get(r.severity) ?? 0) + r.n)
      g.sum += r.cleared_sum ?? 0
      g.cleared += r.cleared_n
      groups.set(key, g)
    }
    const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places
    return [...groups.values()].map((g): CorrelationRow => {
      const total = [...g.counts.values()].reduce((s, n) => s + n, 0)
      return {
        precipitation: g.precipitation,
        road_surface: g.road_surface,
        total_events: total,
        by_severity: Object.fromEntries(severities.map((s) => [s, g.counts.get(s) ?? 0])),
        severity_share: Object.fromEntries(severities.map((s) => [s, round((g.counts.get(s) ?? 0) / total, 4)])),
        avg_clearance_minutes: g.cleared > 0 ? round(g.sum / g.cleared, 2) : null
      }
    }).sort((a, b) => b.total_events - a.total_events || a.precipitation.localeCompare(b.precipitation) || a.road_surface.localeCompare(b.road_surface))
  })
