import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Metric } from "effect"
import { weatherSnapshots } from "./metrics.js"

export interface SnapshotSettings {
  /** the farthest a station may be from an event for its reading to describe it */
  readonly maxKm: number
  /** how long after an event's creation a station's first reading may still describe it */
  readonly lateS: number
}

/**
 * The EventWeatherSnapshot (SPEC §2.9) of each candidate event without one: the latest reading
 * of the nearest active station within `maxKm` (ties to the lower station id). A bounding box
 * in degrees prefilters stations; the great-circle distance decides. Once written a snapshot
 * never changes (unique per event), so replays and late readings cannot rewrite it.
 */
const recordFor = (candidates: (sql: SqlClient.SqlClient) => Statement.Fragment, settings: SnapshotSettings) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const km = settings.maxKm
    const rows = yield* sql<{ n: number }>`
      WITH written AS (
        INSERT INTO event_weather_snapshots (event_id, station_id, created_at, reading_recorded_at, distance_km, temperature,
          temperature_c, humidity, precipitation, road_surface, visibility, wind_speed, wind_direction,
          temperature_units, wind_speed_units, visibility_units)
        SELECT a.event_id, w.station_id, a.created_at, w.recorded_at, round(w.d::numeric, 3)::float8, w.temperature,
               w.temperature_c, w.humidity, w.precipitation, w.road_surface, w.visibility, w.wind_speed, w.wind_direction,
               w.temperature_units, w.wind_speed_units, w.visibility_units
        FROM analytics_events a
        CROSS JOIN LATERAL (
          SELECT r.*, geo_haversine_km(a.latitude, a.longitude, r.latitude, r.longitude) AS d
          FROM weather_readings r
          WHERE r.is_active
            AND r.latitude BETWEEN a.latitude - ${km / 111.0} AND a.latitude + ${km / 111.0}
            AND r.longitude BETWEEN a.longitude - ${km} / (111.0 * greatest(cos(radians(a.latitude)), 0.01))
                                AND a.longitude + ${km} / (111.0 * greatest(cos(radians(a.latitude)), 0.01))
          ORDER BY d, r.station_id LIMIT 1) w
        WHERE a.created_at IS NOT NULL AND w.d <= ${km} AND ${candidates(sql)}
          AND NOT EXISTS (SELECT 1 FROM event_weather_snapshots s WHERE s.event_id = a.event_id)
        ON CONFLICT (event_id) DO NOTHING
        RETURNING event_id, precipitation, road_surface),
      copied AS (
        UPDATE analytics_events a SET weather_precipitation = coalesce(w.precipitation, 'unknown'),
          weather_road_surface = coalesce(w.road_surface, 'unknown')
        FROM written w WHERE a.event_id = w.event_id
        RETURNING 1)
      SELECT count(*)::int AS n FROM copied`
    yield* Metric.incrementBy(weatherSnapshots, rows[0]?.n ?? 0)
  })

/** Events created in this batch: the reading in force when they appeared. */
export const snapshotNewEvents = (eventIds: ReadonlyArray<string>, settings: SnapshotSettings) =>
  eventIds.length === 0 ? Effect.void : recordFor((sql) => sql.and([sql`a.event_id = ANY(${eventIds})`]), settings)

/**
 * Events a station's newly arrived reading may describe: created up to `lateS` before it
 * (sources are polled independently, so at start-up an event may land just before the weather
 * beside it) or after it (a reclaimed batch can apply the reading after later events).
 */
export const snapshotRecentEvents = (readingAt: string, settings: SnapshotSettings) =>
  recordFor(
    (sql) =>
      sql.and([
        sql`a.created_at >= ${readingAt}::timestamptz - make_interval(secs => ${settings.lateS})`,
        sql`a.created_at <= ${readingAt}::timestamptz + make_interval(secs => ${settings.lateS})`
      ]),
    settings
  )
