import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The customer portal: passwords (argon2id, PHC strings), server-side sessions that
 * a log-out revokes, single-use e-mail tokens (verification, password reset), requests an
 * operator applies (plan upgrades, routing top-up packs), the packs themselves, and requests per
 * customer per day for the usage chart. Tokens and session ids are stored as SHA-256 only.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
ALTER TABLE customers ADD COLUMN password_hash text;
CREATE INDEX customers_email_lower ON customers (lower(email));

CREATE TABLE portal_sessions (
  id_hash bytea PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  user_agent text NOT NULL DEFAULT '',
  ip text NOT NULL DEFAULT ''
);
CREATE INDEX portal_sessions_customer ON portal_sessions (customer_id);

CREATE TABLE email_tokens (
  token_hash bytea PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('verify', 'reset')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_tokens_customer ON email_tokens (customer_id, purpose);

CREATE TABLE billing_requests (
  id bigserial PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('upgrade', 'routing_pack')),
  plan_code text,
  pack_calls integer,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'applied', 'declined')),
  created_at timestamptz NOT NULL,
  decided_at timestamptz,
  CHECK ((kind = 'upgrade') = (plan_code IS NOT NULL)),
  CHECK ((kind = 'routing_pack') = (pack_calls IS NOT NULL))
);
CREATE INDEX billing_requests_customer ON billing_requests (customer_id, created_at DESC);

-- spent first in, first out once the month's bucket cannot cover a call
CREATE TABLE routing_packs (
  id bigserial PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  calls integer NOT NULL CHECK (calls > 0),
  used integer NOT NULL DEFAULT 0 CHECK (used >= 0 AND used <= calls),
  granted_at timestamptz NOT NULL,
  request_id bigint REFERENCES billing_requests(id)
);
CREATE INDEX routing_packs_open ON routing_packs (customer_id, granted_at, id) WHERE used < calls;

CREATE TABLE request_usage (
  customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  day date NOT NULL,
  requests bigint NOT NULL,
  PRIMARY KEY (customer_id, day)
);
`)
)
