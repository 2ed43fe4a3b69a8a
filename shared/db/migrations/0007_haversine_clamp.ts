import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Near the antipode rounding can lift the haversine term a hair above 1, and asin then fails:
 * a radius search of 18,500–20,000 km (the documented maximum) must measure, not error.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE OR REPLACE FUNCTION geo_haversine_km(lat1 double precision, lng1 double precision, lat2 double precision, lng2 double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 2 * 6371.0088 * asin(least(1, sqrt(
    power(sin(radians(lat2 - lat1) / 2), 2) + cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(lng2 - lng1) / 2), 2))))
$$;
`)
)
