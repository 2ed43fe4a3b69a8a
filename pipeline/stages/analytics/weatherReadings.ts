import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { FeatureChange } from "../../../shared/domain/Change.js"

export const WEATHER_STATION_TYPE = "weather_stations"

interface ReadingRow {
  station_id: string
  version: number
  jurisdiction: string
  name: string
  latitude: number
  longitude: number
  is_active: boolean
  temperature: number | null
  temperature_c: number | null
  humidity: number | null
  precipitation: string | null
  road_surface: string | null
  visibility: number | null
  wind_speed: number | null
  wind_direction: string | null
  temperature_units: string | null
  wind_speed_units: string | null
  visibility_units: string | null
  recorded_at: string
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null)
const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim().toLowerCase() : null)
/** A unit as the station wrote it ("km/h", "°C"); its case matters, so it is only trimmed. */
const unit = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim().slice(0, 16) : null)
const direction = (v: unknown) =>
  typeof v === "number" && Number.isFinite(v) ? String(v) : typeof v === "string" && v.trim() !== "" ? v.trim() : null
const instant = (v: unknown) =>
  typeof v === "string" && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : null

/**
 * A station's reading from its feature properties (SPEC §2.2 weather_stations keys). A reading
 * is timed by the agency's observation time when it gave one, else by when we saw it.
 */
export const readingRows = (changes: ReadonlyArray<FeatureChange>) => {
  const readings = new Map<string, ReadingRow>()
  const deactivated = new Map<string, number>()
  let seenAt = ""
  for (const c of changes) {
    if (c.keys.feature_type !== WEATHER_STATION_TYPE) continue
    if (c.at > seenAt) seenAt = c.at
    if (c.feature === undefined) {
      if ((deactivated.get(c.feature_id) ?? -1) < c.version) deactivated.set(c.feature_id, c.version)
      continue
    }
    const f = c.feature
    const p = f.properties
    const row: ReadingRow = {
      station_id: c.feature_id,
      version: c.version,
      jurisdiction: f.jurisdiction,
      name: f.name,
      latitude: f.latitude,
      longitude: f.longitude,
      is_active: f.is_active && c.op !== "deactivated",
      temperature: num(p.temperature),
      temperature_c: num(p.temperature_c),
      humidity: num(p.humidity),
      precipitation: text(p.precipitation),
      road_surface: text(p.road_surface),
      visibility: num(p.visibility),
      wind_speed: num(p.wind_speed),
      wind_direction: direction(p.wind_direction),
      temperature_units: unit(p.temperature_units),
      wind_speed_units: unit(p.wind_speed_units),
      visibility_units: unit(p.visibility_units),
      recorded_at: instant(p.observed_at) ?? c.at
    }
    const seen = readings.get(c.feature_id)
    if (seen === undefined || seen.version < c.version) readings.set(c.feature_id, row)
  }
  /** seenAt: when the newest of these readings reached us */
  return {
    readings: [...readings.values()],
    seenAt,
    deactivated: [...deactivated].map(([station_id, version]) => ({ station_id, version }))
  }
}

/** Newest version wins, so a replayed or late message never rolls a station back. */
export const upsertReadings = (rows: ReadonlyArray<ReadingRow>) =>
  rows.length === 0
    ? Effect.void
    : Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`
    INSERT INTO weather_readings AS w (station_id, version, jurisdiction, name, latitude, longitude, is_active, temperature,
      temperature_c, humidity, precipitation, road_surface, visibility, wind_speed, wind_direction, temperature_units, wind_speed_units, visibility_units, recorded_at)
    SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(station_id text, version bigint, jurisdiction text,
      name text, latitude float8, longitude float8, is_active boolean, temperature float8, temperature_c float8, humidity float8,
      precipitation text, road_surface text, visibility float8, wind_speed float8, wind_direction text, temperature_units text, wind_speed_units text, visibility_units text,
      recorded_at timestamptz)
    ON CONFLICT (station_id) DO UPDATE SET version = excluded.version, jurisdiction = excluded.jurisdiction, name = excluded.name,
      latitude = excluded.latitude, longitude = excluded.longitude, is_active = excluded.is_active,
      temperature = excluded.temperature, temperature_c = excluded.temperature_c, humidity = excluded.humidity,
      precipitation = excluded.precipitation, road_surface = excluded.road_surface, visibility = excluded.visibility,
      wind_speed = excluded.wind_speed, wind_direction = excluded.wind_direction,
      temperature_units = excluded.temperature_units, wind_speed_units = excluded.wind_speed_units,
      visibility_units = excluded.visibility_units, recorded_at = excluded.recorded_at
    WHERE excluded.version > w.version`
      ).pipe(Effect.asVoid)

export const deactivateStations = (rows: ReadonlyArray<{ station_id: string; version: number }>) =>
  rows.length === 0
    ? Effect.void
    : Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`
    UPDATE weather_readings AS w SET is_active = false, version = x.version
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(station_id text, version bigint)
    WHERE w.station_id = x.station_id AND w.version < x.version`
      ).pipe(Effect.asVoid)
