import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The materializer publishes the routes to check again on a stream of its own, so the route
 * monitor's queue table goes. A history-skipping group is known by stream and name: the
 * webhooks group reads the materialized stream.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
DROP TABLE IF EXISTS route_rechecks;
DROP SEQUENCE IF EXISTS route_recheck_marks;
UPDATE stream_groups SET name = CASE WHEN name = 'webhooks' THEN 'materialized:webhooks' ELSE 'changes:' || name END
  WHERE name NOT LIKE '%:%';
`)
)
