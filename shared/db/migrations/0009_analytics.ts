import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What the analytics stage keeps (DESIGN: stages/analytics): one narrow row per event with the
 * figures the analytics endpoints aggregate, the latest reading of every weather station, and
 * the weather snapshot taken at each event's creation (SPEC §2.9 EventWeatherSnapshot).
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
-- An event as analytics sees it. Content and archive are versioned apart so changes applied
-- twice or out of order (reclaimed messages, several consumers) end in the same row; a row
-- whose archive arrived before its content has no created_at yet and is left out of answers.
CREATE TABLE analytics_events (
  event_id text PRIMARY KEY,
  jurisdiction text NOT NULL,
  type text NOT NULL,
  severity text NOT NULL,
  roads text[] NOT NULL DEFAULT '{}',
  latitude double precision,
  longitude double precision,
  h3_r9 bigint,
  start_time timestamptz,
  created_at timestamptz,
  content_version bigint NOT NULL DEFAULT 0,
  archived_at timestamptz,
  archive_reason text,
  archive_version bigint NOT NULL DEFAULT 0,
  -- copied from the event's weather snapshot when it is written (it never changes), so the
  -- weather correlation reads one table
  weather_precipitation text,
  weather_road_surface text,
  -- minutes from start_time (first seen when the agency gave none) to the archive
  clearance_minutes double precision GENERATED ALWAYS AS
    (extract(epoch FROM archived_at - coalesce(start_time, created_at)) / 60.0) STORED
);
CREATE INDEX analytics_events_created ON analytics_events (created_at) INCLUDE (jurisdiction, type, severity);
CREATE INDEX analytics_events_jurisdiction ON analytics_events (jurisdiction, created_at);

CREATE TABLE weather_readings (
  station_id text PRIMARY KEY,
  version bigint NOT NULL,
  jurisdiction text NOT NULL,
  name text NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  is_active boolean NOT NULL,
  temperature double precision,
  temperature_c double precision,
  humidity double precision,
  precipitation text,
  road_surface text,
  visibility double precision,
  wind_speed double precision,
  wind_direction text,
  recorded_at timestamptz NOT NULL
);
CREATE INDEX weather_readings_position ON weather_readings (latitude, longitude) WHERE is_active;

CREATE TABLE event_weather_snapshots (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL UNIQUE,
  station_id text NOT NULL,
  created_at timestamptz NOT NULL,
  reading_recorded_at timestamptz NOT NULL,
  distance_km double precision NOT NULL,
  temperature double precision,
  temperature_c double precision,
  humidity double precision,
  precipitation text,
  road_surface text,
  visibility double precision,
  wind_speed double precision,
  wind_direction text
);

-- /analytics/changes: a window's first history id and its count, from the index alone
DROP INDEX event_history_time;
CREATE INDEX event_history_time ON event_history (changed_at) INCLUDE (id);

-- The parent of an H3 cell (as int8) at a coarser resolution: set the resolution field and
-- fill the finer digits with 7, as the H3 index layout defines; hotspots group by it.
CREATE FUNCTION h3_parent(cell bigint, res int) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (cell & ~((15::bigint << 52) | ((1::bigint << (3 * (15 - res))) - 1)))
         | (res::bigint << 52) | ((1::bigint << (3 * (15 - res))) - 1)
$$;
`)
)
