import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The W3C trace context of the change a delivery was made for: its attempts are
 * spans of the trace that began at the poll which saw the change, in whichever sender process.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`ALTER TABLE webhook_deliveries ADD COLUMN traceparent text;`)
)
