import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { getHexagonEdgeLengthAvg } from "h3-js"
import { type FactFilters, factWhere } from "./AnalyticsFacts.js"

/** Grid resolutions hotspots offer: parents of the stored resolution-9 cell (0 ≈ 1,280 km edge … 9 ≈ 0.2 km). */
export const MIN_RESOLUTION = 0
export const MAX_RESOLUTION = 9
export const DEFAULT_RESOLUTION = 5

/** The H3 resolution whose average edge length is nearest `km` (on a log scale: each step is ~2.65×). */
export const resolutionForKm = (km: number) => {
  let best = MIN_RESOLUTION
  for (let r = MIN_RESOLUTION; r <= MAX_RESOLUTION; r++) {
    const d = Math.abs(Math.log(getHexagonEdgeLengthAvg(r, "km") / km))
    if (d < Math.abs(Math.log(getHexagonEdgeLengthAvg(best, "km") / km))) best = r
  }
  return best
}

export interface HotspotRow {
  readonly cluster_id: string
  readonly latitude: number
  readonly longitude: number
  readonly event_count: number
  readonly radius_km: number
  readonly top_type: string
  readonly top_road: string | null
}

/**
 * Events grouped by their H3 cell at `resolution`; a cluster is a cell with at least `minCount`
 * events. Its centre is the mean of its events' positions, `radius_km` the great-circle distance
 * from the centre to its farthest event, `top_type` and `top_road` (an event's first road) the
 * most frequent, ties to the alphabetically first. `cluster_id` is the cell's H3 index.
 */
export const hotspots = (f: FactFilters, resolution: number, minCount: number, limit: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<HotspotRow>`
    WITH cells AS MATERIALIZED (
      SELECT h3_parent(a.h3_r9, ${resolution}) AS cell, a.latitude, a.longitude, a.type, a.roads[1] AS road
      FROM analytics_events a WHERE ${factWhere(sql, f)}),
    clusters AS (
      SELECT cell, count(*)::int AS n, avg(latitude) AS lat, avg(longitude) AS lng FROM cells
      GROUP BY cell HAVING count(*) >= ${minCount} ORDER BY n DESC, cell LIMIT ${limit}),
    members AS (SELECT c.*, k.lat, k.lng FROM cells c JOIN clusters k USING (cell)),
    spread AS (SELECT cell, max(geo_haversine_km(lat, lng, latitude, longitude)) AS r FROM members GROUP BY cell),
    types AS (SELECT DISTINCT ON (cell) cell, type FROM (SELECT cell, type, count(*) AS n FROM members GROUP BY 1, 2) t ORDER BY cell, n DESC, type),
    roads AS (SELECT DISTINCT ON (cell) cell, road FROM (SELECT cell, road, count(*) AS n FROM members WHERE road IS NOT NULL GROUP BY 1, 2) t ORDER BY cell, n DESC, road)
    SELECT to_hex(k.cell) AS cluster_id, round(k.lat::numeric, 6)::float8 AS latitude, round(k.lng::numeric, 6)::float8 AS longitude,
           k.n AS event_count, round(s.r::numeric, 3)::float8 AS radius_km, t.type AS top_type, r.road AS top_road
    FROM clusters k JOIN spread s USING (cell) JOIN types t USING (cell) LEFT JOIN roads r USING (cell)
    ORDER BY k.n DESC, k.cell`
  )
