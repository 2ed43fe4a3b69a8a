import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Bbox } from "../http/QueryParams.js"

export interface StationFilters {
  readonly jurisdictions?: ReadonlyArray<string> | undefined
  readonly bbox?: Bbox | undefined
  readonly includeInactive: boolean
  readonly limit: number
}

/** The latest reading of each station, by station id. */
export const latestReadings = (f: StationFilters) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`
    SELECT station_id, name, jurisdiction, latitude, longitude, temperature, temperature_c, wind_speed, wind_direction,
           precipitation, road_surface, humidity, visibility, temperature_units, wind_speed_units, visibility_units,
           recorded_at, is_active
    FROM weather_readings w
    WHERE ${sql.and([
      f.includeInactive ? sql`TRUE` : sql`w.is_active`,
      f.jurisdictions ? sql`w.jurisdiction = ANY(${f.jurisdictions})` : sql`TRUE`,
      f.bbox
        ? sql`w.latitude BETWEEN ${f.bbox.minLat} AND ${f.bbox.maxLat} AND w.longitude BETWEEN ${f.bbox.minLng} AND ${f.bbox.maxLng}`
        : sql`TRUE`
    ])}
    ORDER BY station_id LIMIT ${f.limit}`
  )

/** An event's weather snapshot (SPEC §2.9), or undefined. */
export const eventWeather = (eventId: string) =>
  Effect.map(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql`
      SELECT id, event_id, station_id, created_at, reading_recorded_at, distance_km, temperature, temperature_c, humidity,
             precipitation, road_surface, visibility, wind_speed, wind_direction, temperature_units, wind_speed_units,
             visibility_units
      FROM event_weather_snapshots WHERE event_id = ${eventId}`
    ),
    (rows) => rows[0]
  )
