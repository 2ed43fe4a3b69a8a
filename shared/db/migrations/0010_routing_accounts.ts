import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What truck routing keeps per customer: saved truck profiles, every route answer
 * (30 minutes, or until deleted once persisted), the rechecks the materializer asks of monitored
 * routes, routing calls per month (the durable copy of the Redis counter), and Free's daily cap.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE plans ADD COLUMN daily_routing_cap integer;

CREATE TABLE truck_profiles (
  id text PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  name text NOT NULL,
  truck jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX truck_profiles_customer ON truck_profiles (customer_id, created_at, id);

CREATE TABLE saved_routes (
  id text PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  customer_route_id text,
  -- the request as resolved (profile merged), how to evaluate it again, the engine's routes, and the answer
  request json NOT NULL,
  evaluation json NOT NULL,
  engine_routes json NOT NULL,
  answer json NOT NULL,
  -- what a list shows without reading the answer
  summary json NOT NULL,
  -- res-7 cells of the primary route's hazard cover: where a change can touch it
  cells bigint[] NOT NULL,
  calls integer NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  persisted_at timestamptz,
  monitor boolean NOT NULL DEFAULT false,
  -- critical warnings already known (at persist or notified since), by warning key
  known_critical text[] NOT NULL DEFAULT '{}',
  checked_at timestamptz,
  check_seq bigint NOT NULL DEFAULT 0,
  CHECK ((persisted_at IS NULL) <> (expires_at IS NULL))
);
CREATE INDEX saved_routes_persisted ON saved_routes (customer_id, persisted_at, id) WHERE persisted_at IS NOT NULL;
CREATE INDEX saved_routes_expiry ON saved_routes (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX saved_routes_monitor_cells ON saved_routes USING gin (cells) WHERE monitor;
CREATE INDEX saved_routes_monitor_checked ON saved_routes (checked_at) WHERE monitor;

-- a mark is a number, not a time: the monitor clears only the marks it has read
CREATE SEQUENCE route_recheck_marks;
CREATE TABLE route_rechecks (
  route_id text PRIMARY KEY REFERENCES saved_routes(id) ON DELETE CASCADE,
  mark bigint NOT NULL,
  leased_until timestamptz
);

CREATE TABLE routing_usage (
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  period text NOT NULL,
  calls integer NOT NULL,
  PRIMARY KEY (customer_id, period)
);
`)
)
