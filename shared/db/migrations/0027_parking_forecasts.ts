import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Truck-parking readings as the pipeline reads them (the forecaster's history, one row per site
 * and poll) and the forecaster's fitted models, newest last.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE TABLE parking_readings (
  site text NOT NULL,
  at timestamptz NOT NULL,
  available integer,
  low boolean NOT NULL DEFAULT false,
  capacity integer,
  trend text,
  PRIMARY KEY (site, at)
);
CREATE INDEX parking_readings_at ON parking_readings (at);
CREATE TABLE parking_models (
  id bigserial PRIMARY KEY,
  fitted_at timestamptz NOT NULL DEFAULT now(),
  data_until timestamptz NOT NULL,
  seeded boolean NOT NULL,
  readings integer NOT NULL,
  sites integer NOT NULL,
  fit_ms integer NOT NULL,
  model jsonb NOT NULL
);`)
)
