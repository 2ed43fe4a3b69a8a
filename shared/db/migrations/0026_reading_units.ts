import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The unit a station published each reading in, so a reading is never shown as a bare number. */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE weather_readings ADD COLUMN temperature_units text, ADD COLUMN wind_speed_units text,
  ADD COLUMN visibility_units text;
ALTER TABLE event_weather_snapshots ADD COLUMN temperature_units text, ADD COLUMN wind_speed_units text,
  ADD COLUMN visibility_units text;`)
)
