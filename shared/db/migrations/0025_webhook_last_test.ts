import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** A subscription's last test delivery as sent and answered, for its owner to look at. */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`ALTER TABLE webhook_subscriptions ADD COLUMN last_test jsonb;`)
)
