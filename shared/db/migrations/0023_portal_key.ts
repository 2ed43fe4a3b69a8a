import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The portal's own credential per account: the row the map, the planner and the reference's
 * try-it are counted under when a logged-in browser calls the API with its session. Its key is
 * never shown to anyone, so it works through a session only; it is not listed among, or counted
 * against, the customer's keys.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
    ALTER TABLE api_keys ADD COLUMN portal boolean NOT NULL DEFAULT false;
    CREATE UNIQUE INDEX api_keys_portal_one ON api_keys (customer_id) WHERE portal;
  `)
)
