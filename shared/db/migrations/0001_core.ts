import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Reference data, accounts, events and their history, and the pipeline's own records. */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE jurisdiction_groups (
  id text PRIMARY KEY,
  name text NOT NULL,
  description text,
  primary_jurisdiction_code text NOT NULL,
  sort_order integer NOT NULL DEFAULT 0
);

CREATE TABLE jurisdictions (
  code text PRIMARY KEY,
  name text NOT NULL,
  official_name text,
  country char(2) NOT NULL,
  scope text NOT NULL CHECK (scope IN ('state', 'federal', 'regional')),
  group_id text REFERENCES jurisdiction_groups(id),
  member_order integer NOT NULL DEFAULT 100,
  is_active boolean NOT NULL DEFAULT true,
  last_sync_at timestamptz
);
CREATE INDEX jurisdictions_group ON jurisdictions (group_id, member_order);

CREATE TABLE plans (
  id serial PRIMARY KEY,
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  is_active boolean NOT NULL DEFAULT true,
  allow_analytics boolean NOT NULL DEFAULT false,
  allow_geojson boolean NOT NULL DEFAULT false,
  allow_truck_data boolean NOT NULL DEFAULT false,
  allow_webhooks boolean NOT NULL DEFAULT false,
  data_delay_sec integer NOT NULL DEFAULT 0,
  data_unit_price numeric NOT NULL DEFAULT 0,
  features jsonb NOT NULL DEFAULT '[]',
  is_contact_sales boolean NOT NULL DEFAULT false,
  rate_limit_rpm integer NOT NULL,
  daily_request_limit integer,
  max_limit integer NOT NULL,
  max_batch_size integer NOT NULL,
  max_jurisdictions integer,
  requires_jurisdiction boolean NOT NULL DEFAULT false,
  saved_route_slots integer NOT NULL DEFAULT 0,
  monthly_routing_quota integer NOT NULL DEFAULT 0,
  trial_days integer
);

CREATE TABLE customers (
  id bigserial PRIMARY KEY,
  name text NOT NULL DEFAULT '',
  email text NOT NULL UNIQUE,
  company text,
  email_verified boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  plan_id integer NOT NULL REFERENCES plans(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  trial_ends_at timestamptz,
  subscription_ends_at timestamptz,
  subscription_status text NOT NULL DEFAULT 'none'
    CHECK (subscription_status IN ('none', 'active', 'canceled', 'past_due', 'paused'))
);

CREATE TABLE api_keys (
  id bigserial PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  name text NOT NULL DEFAULT 'default',
  key_prefix text NOT NULL,
  key_hash bytea NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  allowed_origins text[] NOT NULL DEFAULT '{}',
  rate_limit_rpm integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_prefix ON api_keys (key_prefix);

CREATE TABLE sources (
  id text PRIMARY KEY,
  adapter text NOT NULL,
  jurisdiction text NOT NULL,
  url text NOT NULL,
  poll_interval_s integer NOT NULL,
  attribution jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE source_polls (
  id bigserial PRIMARY KEY,
  source text NOT NULL,
  started_at timestamptz NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('ok', 'not_modified', 'empty', 'error')),
  latency_ms integer NOT NULL,
  http_status integer,
  record_count integer NOT NULL DEFAULT 0,
  rejected_count integer NOT NULL DEFAULT 0,
  change_count integer NOT NULL DEFAULT 0,
  error text
);
CREATE INDEX source_polls_source_time ON source_polls (source, started_at DESC);

CREATE TABLE quarantine (
  id bigserial PRIMARY KEY,
  source text NOT NULL,
  polled_at timestamptz NOT NULL,
  reason text NOT NULL,
  sample jsonb
);
CREATE INDEX quarantine_source_time ON quarantine (source, polled_at DESC);

CREATE TABLE events (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  source text NOT NULL,
  source_id text NOT NULL,
  jurisdiction text NOT NULL,
  type text NOT NULL,
  sub_type text,
  cause text,
  severity text NOT NULL,
  status text NOT NULL,
  title text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  geometry jsonb,
  affected_roads text[] NOT NULL DEFAULT '{}',
  direction text,
  lanes_affected text,
  start_time timestamptz,
  end_time timestamptz,
  estimated_start_time timestamptz,
  estimated_end_time timestamptz,
  source_created_at timestamptz,
  source_updated_at timestamptz,
  road_class text,
  metadata jsonb NOT NULL DEFAULT '{}',
  last_updated timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  archived_at timestamptz,
  archive_reason text CHECK (archive_reason IN ('observed', 'stale_sweep')),
  version bigint NOT NULL,
  content_hash text NOT NULL,
  last_seen_at timestamptz NOT NULL,
  h3_r3 bigint NOT NULL,
  h3_r5 bigint NOT NULL,
  h3_r7 bigint NOT NULL,
  emitted_at timestamptz,
  materialized_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (source, source_id)
);
CREATE INDEX events_jurisdiction ON events (jurisdiction, seq);
CREATE INDEX events_status ON events (status, seq);
CREATE INDEX events_h3_r3 ON events (h3_r3);
CREATE INDEX events_h3_r5 ON events (h3_r5);
CREATE INDEX events_h3_r7 ON events (h3_r7);

CREATE TABLE event_history (
  id bigserial PRIMARY KEY,
  change_id text NOT NULL,
  event_id text NOT NULL,
  change_type text NOT NULL,
  old_value text,
  new_value text,
  changed_at timestamptz NOT NULL,
  UNIQUE (change_id, change_type)
);
CREATE INDEX event_history_event ON event_history (event_id, changed_at, id);
CREATE INDEX event_history_time ON event_history (changed_at);
-- the materializer's check for archives that arrived before their event's content
CREATE INDEX event_history_archived ON event_history (event_id) WHERE change_type = 'archived';
`)
)
