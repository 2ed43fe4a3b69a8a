import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What each API worker's index of standing barriers (shared/routing/plan/standingBarriers.ts) reads
 * every few seconds: the structures that bar trucks changed since its last look, and every live
 * closure. Partial, so the indexes stay small beside a million other features and events.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE INDEX features_barrier_changes ON features (materialized_at)
  WHERE feature_type IN ('bridge_clearances', 'bridges', 'weight_restrictions', 'truck_restrictions');
CREATE INDEX events_live_closures ON events (id) WHERE type = 'closure' AND archived_at IS NULL;`)
)
