import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import { coverBbox, coverCircle, type CellCover } from "../../shared/geo/h3cells.js"
import type { Bbox, Circle } from "../params.js"

export interface FeatureFilters {
  readonly types: ReadonlyArray<string>
  readonly jurisdictions?: ReadonlyArray<string>
  readonly active?: boolean
  readonly circle?: Circle
  readonly bbox?: Bbox
  readonly startsAfter?: string
  readonly startsBefore?: string
  readonly endsAfter?: string
  readonly endsBefore?: string
}

/** `total` is counted up to this many rows (SPEC §2.3); exactly this value means "or more". */
export const FEATURE_TOTAL_CAP = 10_000

const COLUMNS = `id, source, source_id, jurisdiction, feature_type, name, description, latitude, longitude, geometry,
  road_name, direction, is_active, start_time, end_time, estimated_start_time, estimated_end_time, properties,
  last_updated, has_details, seq`

const MAX_PREFILTER_CELLS = 1000
const KM_PER_DEG_LAT = 111.32

/**
 * The spatial prefilter as a candidate set: ids of the requested types with a cell in the cover,
 * read first (MATERIALIZED), so the planner never walks the whole table in `seq` order.
 */
const candidates = (sql: SqlClient.SqlClient, cover: CellCover, types: ReadonlyArray<string>) =>
  sql`WITH cand AS MATERIALIZED (
        SELECT DISTINCT feature_id FROM feature_cells
        WHERE res = ${cover.res} AND cell = ANY(${cover.cells}::bigint[]) AND feature_type = ANY(${types}))`

export const spatialCover = (f: FeatureFilters): CellCover | null => {
  const cover = f.circle ? coverCircle(f.circle.lat, f.circle.lng, f.circle.radiusKm) : f.bbox ? coverBbox(f.bbox.minLng, f.bbox.minLat, f.bbox.maxLng, f.bbox.maxLat) : null
  return cover && cover.cells.length <= MAX_PREFILTER_CELLS ? cover : null
}

export const featureWhere = (sql: SqlClient.SqlClient, f: FeatureFilters): Array<Fragment> => {
  const w: Array<Fragment> = [sql`feature_type = ANY(${f.types})`]
  if (f.jurisdictions) w.push(sql`jurisdiction = ANY(${f.jurisdictions})`)
  if (f.active === true) w.push(sql`is_active`)
  if (f.active === false) w.push(sql`NOT is_active`)
  if (f.circle) {
    const { lat, lng, radiusKm } = f.circle
    const dLat = radiusKm / KM_PER_DEG_LAT
    w.push(sql`max_lat >= ${lat - dLat} AND min_lat <= ${lat + dLat}`)
    // exact: great-circle distance to the point, or to the nearest part of the line or polygon
    w.push(sql`(CASE WHEN geometry IS NULL OR geometry->>'type' = 'Point'
                     THEN geo_haversine_km(${lat}, ${lng}, latitude, longitude)
                     ELSE geo_distance_km(${lat}, ${lng}, geometry) END) <= ${radiusKm}`)
  }
  if (f.bbox) {
    const b = f.bbox
    // a geometry matches when its own bounding box overlaps the requested one
    w.push(sql`max_lat >= ${b.minLat} AND min_lat <= ${b.maxLat} AND max_lng >= ${b.minLng} AND min_lng <= ${b.maxLng}`)
  }
  // window filters (SPEC §4.2): estimated times first, then scheduled ones
  const start = sql`COALESCE(estimated_start_time, start_time)`
  const end = sql`COALESCE(estimated_end_time, end_time)`
  if (f.startsAfter) w.push(sql`${start} >= ${f.startsAfter}`)
  if (f.startsBefore) w.push(sql`${start} <= ${f.startsBefore}`)
  // open-ended features (known start, no end) always match ends_after and never ends_before
  if (f.endsAfter) w.push(sql`(${end} >= ${f.endsAfter} OR (${end} IS NULL AND ${start} IS NOT NULL))`)
  if (f.endsBefore) w.push(sql`${end} <= ${f.endsBefore}`)
  return w
}

export interface FeaturePage {
  readonly limit: number
  readonly offset: number
  readonly afterSeq?: number
}

export const listFeatures = (f: FeatureFilters, page: FeaturePage) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const cover = spatialCover(f)
    const conditions = featureWhere(sql, f)
    const withCand = cover ? candidates(sql, cover, f.types) : sql``
    const where = sql.and(cover ? [sql`id IN (SELECT feature_id FROM cand)`, ...conditions] : conditions)
    const keyset = page.afterSeq !== undefined ? sql`AND seq > ${page.afterSeq}` : sql``
    const [rows, [{ total }]] = yield* Effect.all([
      sql<Record<string, unknown> & { seq: number }>`
        ${withCand} SELECT ${sql.literal(COLUMNS)} FROM features WHERE ${where} ${keyset}
        ORDER BY seq LIMIT ${page.limit + 1} OFFSET ${page.afterSeq !== undefined ? 0 : page.offset}`,
      sql<{ total: number }>`${withCand} SELECT count(*)::int AS total FROM (SELECT 1 FROM features WHERE ${where} LIMIT ${FEATURE_TOTAL_CAP}) capped`
    ], { concurrency: 2 })
    return { rows: rows.slice(0, page.limit), total, hasMore: rows.length > page.limit }
  })

export const featureTypeCounts = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ type: string; count: number; active_count: number }>`
    SELECT feature_type AS type, count(*)::int AS count, (count(*) FILTER (WHERE is_active))::int AS active_count
    FROM features GROUP BY feature_type ORDER BY feature_type`
)
