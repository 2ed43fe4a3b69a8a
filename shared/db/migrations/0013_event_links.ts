import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * One event across sources. The materializer links two sources' reports of one
 * happening (`event_links`, both directions, so either side is one index probe) and marks every
 * report but the first-materialized of its linked group with `represented_by`. `road_keys` holds
 * the event's roads in one spelling (shared/domain/Road.ts roadKey), so candidates are found by
 * road. Rows materialized before this migration get their keys with their next change.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE events ADD COLUMN road_keys text[] NOT NULL DEFAULT '{}', ADD COLUMN represented_by text;
CREATE INDEX events_represented_by ON events (represented_by) WHERE represented_by IS NOT NULL;
-- candidates are looked up by cell and checked for another source inside the index, so a
-- source's own events (most of a cell) cost no heap reads
CREATE INDEX events_h3_r3_source ON events (h3_r3, source) WHERE status = 'active';

CREATE TABLE event_links (
  event_id text NOT NULL,
  related_id text NOT NULL,
  reason text NOT NULL,
  confidence real NOT NULL CHECK (confidence > 0 AND confidence <= 1),
  linked_at timestamptz NOT NULL,
  PRIMARY KEY (event_id, related_id)
);
CREATE INDEX event_links_related ON event_links (related_id);

ALTER TABLE webhook_subscriptions ADD COLUMN dedupe boolean NOT NULL DEFAULT false;
`)
)
