import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The consumer groups that have ever been made on the change stream (pipeline/stages/joinGroup.ts):
 * a group that starts at the stream's end the first time is made again from its start when Redis
 * lost it, and only Postgres remembers which case it is.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`CREATE TABLE stream_groups (name text PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now());`)
)
