import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Distance in km from a point to a GeoJSON geometry (points, lines, polygon rings), for the exact
 * step after the H3 prefilter. Segments are measured in a local equirectangular projection
 * around the query point, which is within a fraction of a percent at the radii the API allows;
 * a point inside a polygon is at distance 0.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.unsafe(`
CREATE FUNCTION geo_haversine_km(lat1 double precision, lng1 double precision, lat2 double precision, lng2 double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 2 * 6371.0088 * asin(sqrt(
    power(sin(radians(lat2 - lat1) / 2), 2) + cos(radians(lat1)) * cos(radians(lat2)) * power(sin(radians(lng2 - lng1) / 2), 2)))
$$;

CREATE FUNCTION geo_segment_km(lat double precision, lng double precision,
  alat double precision, alng double precision, blat double precision, blng double precision)
RETURNS double precision LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  kx double precision := 111.19508 * cos(radians(lat));
  ky double precision := 111.19508;
  ax double precision := (alng - lng) * kx; ay double precision := (alat - lat) * ky;
  bx double precision := (blng - lng) * kx; b_y double precision := (blat - lat) * ky;
  dx double precision := bx - ax; dy double precision := b_y - ay;
  len2 double precision := dx * dx + dy * dy;
  t double precision;
BEGIN
  IF len2 = 0 THEN RETURN geo_haversine_km(lat, lng, alat, alng); END IF;
  t := greatest(0, least(1, -(ax * dx + ay * dy) / len2));
  RETURN sqrt(power(ax + t * dx, 2) + power(ay + t * dy, 2));
END $$;

-- min distance from (lat, lng) to a run of [lng, lat] positions taken as a path
CREATE FUNCTION geo_path_km(lat double precision, lng double precision, coords jsonb)
RETURNS double precision LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  best double precision := 'Infinity';
  n int := jsonb_array_length(coords);
  i int;
BEGIN
  IF n = 1 THEN
    RETURN geo_haversine_km(lat, lng, (coords->0->>1)::float8, (coords->0->>0)::float8);
  END IF;
  FOR i IN 0 .. n - 2 LOOP
    best := least(best, geo_segment_km(lat, lng, (coords->i->>1)::float8, (coords->i->>0)::float8,
                                        (coords->(i+1)->>1)::float8, (coords->(i+1)->>0)::float8));
  END LOOP;
  RETURN best;
END $$;

-- ray casting on a ring of [lng, lat] positions
CREATE FUNCTION geo_in_ring(lat double precision, lng double precision, ring jsonb)
RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  inside boolean := false;
  n int := jsonb_array_length(ring);
  i int; j int := n - 1;
  xi double precision; yi double precision; xj double precision; yj double precision;
BEGIN
  FOR i IN 0 .. n - 1 LOOP
    xi := (ring->i->>0)::float8; yi := (ring->i->>1)::float8;
    xj := (ring->j->>0)::float8; yj := (ring->j->>1)::float8;
    IF ((yi > lat) <> (yj > lat)) AND (lng < (xj - xi) * (lat - yi) / (yj - yi) + xi) THEN inside := NOT inside; END IF;
    j := i;
  END LOOP;
  RETURN inside;
END $$;

CREATE FUNCTION geo_distance_km(lat double precision, lng double precision, g jsonb)
RETURNS double precision LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  best double precision := 'Infinity';
  part jsonb;
BEGIN
  CASE g->>'type'
    WHEN 'Point' THEN RETURN geo_haversine_km(lat, lng, (g->'coordinates'->>1)::float8, (g->'coordinates'->>0)::float8);
    WHEN 'MultiPoint', 'LineString' THEN
      IF g->>'type' = 'LineString' THEN RETURN geo_path_km(lat, lng, g->'coordinates'); END IF;
      FOR part IN SELECT jsonb_array_elements(g->'coordinates') LOOP
        best := least(best, geo_haversine_km(lat, lng, (part->>1)::float8, (part->>0)::float8));
      END LOOP;
    WHEN 'MultiLineString' THEN
      FOR part IN SELECT jsonb_array_elements(g->'coordinates') LOOP best := least(best, geo_path_km(lat, lng, part)); END LOOP;
    WHEN 'Polygon' THEN
      IF geo_in_ring(lat, lng, g->'coordinates'->0) THEN RETURN 0; END IF;
      FOR part IN SELECT jsonb_array_elements(g->'coordinates') LOOP best := least(best, geo_path_km(lat, lng, part)); END LOOP;
    WHEN 'MultiPolygon' THEN
      FOR part IN SELECT jsonb_array_elements(g->'coordinates') LOOP
        best := least(best, geo_distance_km(lat, lng, jsonb_build_object('type', 'Polygon', 'coordinates', part)));
      END LOOP;
    ELSE RETURN NULL;
  END CASE;
  RETURN best;
END $$;
`)
)
