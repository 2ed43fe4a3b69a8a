import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What each source's adapter is (format, kind, feature types it yields), recorded when the
 * pipeline registers its catalogue: the API answers /data-sources from this table alone.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE sources
  ADD COLUMN format text,
  ADD COLUMN kind text,
  ADD COLUMN yields text[] NOT NULL DEFAULT '{}';
`)
)
