import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Road features (SPEC §2.2), their lifecycle history, and the H3 cells line/polygon features cover. */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE features (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  source text NOT NULL,
  source_id text NOT NULL,
  jurisdiction text NOT NULL,
  feature_type text NOT NULL,
  name text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  geometry jsonb,
  -- bounding box of the geometry (the point itself for point features), for bbox searches
  min_lat double precision NOT NULL,
  min_lng double precision NOT NULL,
  max_lat double precision NOT NULL,
  max_lng double precision NOT NULL,
  road_name text,
  direction text,
  is_active boolean NOT NULL,
  start_time timestamptz,
  end_time timestamptz,
  estimated_start_time timestamptz,
  estimated_end_time timestamptz,
  properties jsonb NOT NULL DEFAULT '{}',
  has_details boolean NOT NULL DEFAULT false,
  last_updated timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  version bigint NOT NULL,
  content_hash text NOT NULL,
  last_seen_at timestamptz NOT NULL,
  materialized_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (source, source_id)
);
CREATE INDEX features_type ON features (feature_type, seq);
CREATE INDEX features_jurisdiction ON features (jurisdiction, feature_type, seq);
-- the H3 cells of every feature at each stored resolution: a point's own cell, every cell a
-- line or polygon covers (so it is found anywhere along its geometry); keyed by type first so
-- a one-type radius search reads only its own candidates, and carrying a point's position and
-- list order so a plain radius or bbox search is answered from this index alone
CREATE TABLE feature_cells (
  res smallint NOT NULL,
  cell bigint NOT NULL,
  feature_type text NOT NULL,
  feature_id text NOT NULL REFERENCES features(id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  is_point boolean NOT NULL,
  PRIMARY KEY (res, cell, feature_type, feature_id) INCLUDE (seq, latitude, longitude, is_point)
);
CREATE INDEX feature_cells_feature ON feature_cells (feature_id);

CREATE TABLE feature_history (
  id bigserial PRIMARY KEY,
  change_id text NOT NULL,
  feature_id text NOT NULL,
  change_type text NOT NULL,
  old_value text,
  new_value text,
  changed_at timestamptz NOT NULL,
  UNIQUE (change_id, change_type)
);
CREATE INDEX feature_history_feature ON feature_history (feature_id, changed_at, id);
CREATE INDEX feature_history_time ON feature_history (changed_at);
`)
)
