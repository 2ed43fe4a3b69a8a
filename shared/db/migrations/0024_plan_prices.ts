import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What each self-serve plan costs a month (null: priced with sales), and the price an upgrade
 * request was made at, so an operator applies the plan at the price the customer saw.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
    ALTER TABLE plans ADD COLUMN monthly_price numeric, ADD COLUMN currency text NOT NULL DEFAULT 'USD';
    ALTER TABLE billing_requests ADD COLUMN monthly_price numeric, ADD COLUMN currency text;
  `)
)
