import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Webhook subscriptions, their deliveries (each POST, retried until it succeeds or is dead) with
 * every attempt, and the items waiting in a batch window (SPEC §6).
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE plans ADD COLUMN max_webhooks integer NOT NULL DEFAULT 0;

CREATE TABLE webhook_subscriptions (
  id text PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  name text NOT NULL DEFAULT '',
  url text NOT NULL,
  secret_enc bytea NOT NULL,
  secret_hint text NOT NULL,
  jurisdictions text[] NOT NULL CHECK (cardinality(jurisdictions) > 0),
  match_jurisdictions text[] NOT NULL,
  types text[] NOT NULL DEFAULT '{}',
  sub_types text[] NOT NULL DEFAULT '{}',
  severities text[] NOT NULL DEFAULT '{}',
  causes text[] NOT NULL DEFAULT '{}',
  batch_window_seconds integer CHECK (batch_window_seconds BETWEEN 1 AND 300),
  is_enabled boolean NOT NULL DEFAULT true,
  disabled_reason text CHECK (disabled_reason IN ('owner', 'failures', 'gone')),
  disabled_at timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_subscriptions_customer ON webhook_subscriptions (customer_id, created_at);
CREATE INDEX webhook_subscriptions_jurisdictions ON webhook_subscriptions USING gin (match_jurisdictions) WHERE is_enabled;

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  subscription_id text NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
  event text NOT NULL,
  change_ids text[] NOT NULL,
  body text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  round_start integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries (subscription_id, created_at, id);

CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  status_code integer,
  error text,
  latency_ms integer NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempt);

CREATE TABLE webhook_batch_items (
  subscription_id text NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
  item_id text NOT NULL,
  change_id text NOT NULL,
  item jsonb NOT NULL,
  queued_at timestamptz NOT NULL,
  seq bigserial,
  PRIMARY KEY (subscription_id, item_id)
);
`)
)
