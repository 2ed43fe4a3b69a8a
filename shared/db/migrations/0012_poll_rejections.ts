import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Each poll keeps the kinds of records it refused, with counts, so /data-sources shows
 * an operator a feed drifting; the quarantine table keeps only samples.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`ALTER TABLE source_polls ADD COLUMN rejected_reasons jsonb NOT NULL DEFAULT '[]';`)
)
