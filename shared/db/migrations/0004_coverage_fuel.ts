import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** What is held per jurisdiction and type (rebuilt by the pipeline), and fuel price rows (SPEC §2.5, §2.8). */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE coverage (
  jurisdiction text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('feature', 'event')),
  type text NOT NULL,
  row_count bigint NOT NULL,
  latest_data_at timestamptz,
  last_nonzero_at timestamptz,
  rebuilt_at timestamptz NOT NULL,
  PRIMARY KEY (jurisdiction, kind, type)
);

CREATE TABLE fuel_prices (
  id bigserial PRIMARY KEY,
  jurisdiction text NOT NULL,
  area text NOT NULL DEFAULT '',
  country char(2) NOT NULL CHECK (country IN ('US', 'CA')),
  fuel_type text NOT NULL,
  price numeric(10, 4) NOT NULL,
  currency char(3) NOT NULL,
  unit text NOT NULL,
  period_date date NOT NULL,
  frequency text NOT NULL CHECK (frequency IN ('weekly', 'monthly')),
  source text NOT NULL,
  version bigint NOT NULL,
  observed_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (source, jurisdiction, area, fuel_type, period_date)
);
CREATE INDEX fuel_prices_latest ON fuel_prices (jurisdiction, fuel_type, area, period_date DESC);
`)
)
