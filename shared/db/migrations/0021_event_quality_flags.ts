import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What an event's record says of its own data (shared/domain/qualityFlags.ts), as the editor set
 * it. `end_time_passed` is not stored: it depends on when the event is read.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`ALTER TABLE events ADD COLUMN quality_flags text[] NOT NULL DEFAULT '{}';`)
)
