import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Plan fields behind the event-status, archived-event, time-range and inactive-feature gates
 * (SPEC §7). event_history_days null = no limit on how far back a request may reach.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE plans ADD COLUMN allow_archived_events boolean NOT NULL DEFAULT true;
ALTER TABLE plans ADD COLUMN allow_inactive_features boolean NOT NULL DEFAULT true;
ALTER TABLE plans ADD COLUMN event_history_days integer;
CREATE INDEX events_last_updated ON events (last_updated);
`)
)
