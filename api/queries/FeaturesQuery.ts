import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import { nowMillis } from "../../shared/time/Now.js"
import { coverBbox, coverCircle, type CellCover } from "../../shared/geo/h3cells.js"
import type { Bbox, Circle } from "../http/QueryParams.js"
import type { Page } from "./EventsQuery.js"
import { FEATURE_COLUMNS } from "../../shared/domain/featureColumns.js"

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
  /** plan data delay: features first seen less than this many seconds ago are not shown yet */
  readonly delaySec?: number
}

/** `total` is counted up to this many rows (SPEC §2.3); exactly this value means "or more". */
export const FEATURE_TOTAL_CAP = 10_000

/** A feature as the API shows it (SPEC §2.2). */

/** Lists also read `seq`, their order and cursor key. */
const COLUMNS = `${FEATURE_COLUMNS}, seq`

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

/** Only types and a place: points are decided from the cell index alone (no row reads). */
const plainSpatial = (f: FeatureFilters) =>
  !f.jurisdictions &&
  f.active === undefined &&
  !f.startsAfter &&
  !f.startsBefore &&
  !f.endsAfter &&
  !f.endsBefore &&
  !f.delaySec

const fromCells = (sql: SqlClient.SqlClient, f: FeatureFilters, cover: CellCover, conditions: Array<Fragment>) => {
  const inCover = sql`res = ${cover.res} AND cell = ANY(${cover.cells}::bigint[]) AND feature_type = ANY(${f.types})`
  const pointTest = f.circle
    ? sql`latitude BETWEEN ${f.circle.lat - f.circle.radiusKm / KM_PER_DEG_LAT} AND ${f.circle.lat + f.circle.radiusKm / KM_PER_DEG_LAT}
          AND geo_haversine_km(${f.circle.lat}, ${f.circle.lng}, latitude, longitude) <= ${f.circle.radiusKm}`
    : sql`latitude BETWEEN ${f.bbox!.minLat} AND ${f.bbox!.maxLat} AND longitude BETWEEN ${f.bbox!.minLng} AND ${f.bbox!.maxLng}`
  return sql`WITH m AS MATERIALIZED (
      SELECT feature_id AS id, seq FROM feature_cells WHERE ${inCover} AND is_point AND ${pointTest}
      UNION
      SELECT id, seq FROM features
      WHERE ${sql.and([sql`id IN (SELECT feature_id FROM feature_cells WHERE ${inCover} AND NOT is_point)`, ...conditions])})`
}

export const spatialCover = (f: FeatureFilters): CellCover | null => {
  const cover = f.circle
    ? coverCircle(f.circle.lat, f.circle.lng, f.circle.radiusKm)
    : f.bbox
      ? coverBbox(f.bbox.minLng, f.bbox.minLat, f.bbox.maxLng, f.bbox.maxLat)
      : null
  return cover && cover.cells.length <= MAX_PREFILTER_CELLS ? cover : null
}

export const featureWhere = (sql: SqlClient.SqlClient, f: FeatureFilters, nowMs: number): Array<Fragment> => {
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
  if (f.delaySec && f.delaySec > 0)
    w.push(sql`created_at <= ${new Date(nowMs - f.delaySec * 1000).toISOString()}::timestamptz`)
  return w
}

export const listFeatures = (f: FeatureFilters, page: Page) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const cover = spatialCover(f)
    const conditions = featureWhere(sql, f, yield* nowMillis)
    const keyset = page.afterSeq !== undefined ? sql`AND seq > ${page.afterSeq}` : sql``
    const offset = page.afterSeq !== undefined ? 0 : page.offset
    if (!cover) {
      const where = sql.and(conditions)
      const [rows, [{ total }]] = yield* Effect.all(
        [
          sql<Record<string, unknown> & { seq: number }>`
          SELECT ${sql.literal(COLUMNS)} FROM features WHERE ${where} ${keyset}
          ORDER BY seq LIMIT ${page.limit + 1} OFFSET ${offset}`,
          sql<{
            total: number
          }>`SELECT count(*)::int AS total FROM (SELECT 1 FROM features WHERE ${where} LIMIT ${FEATURE_TOTAL_CAP}) capped`
        ],
        { concurrency: 2 }
      )
      return { rows: rows.slice(0, page.limit), total, hasMore: rows.length > page.limit }
    }
    // spatial: the matches are found once and both the page and the capped total are read from
    // them, in one statement
    const matches = plainSpatial(f)
      ? fromCells(sql, f, cover, conditions)
      : sql`${candidates(sql, cover, f.types)},
      m AS MATERIALIZED (SELECT id, seq FROM features WHERE ${sql.and([sql`id IN (SELECT feature_id FROM cand)`, ...conditions])})`
    const rows = yield* sql<Record<string, unknown> & { seq: number; _total: number }>`
      ${matches}
      SELECT ${sql.literal(COLUMNS)}, (SELECT count(*)::int FROM (SELECT 1 FROM m LIMIT ${FEATURE_TOTAL_CAP}) c) AS _total
      FROM features WHERE id IN (SELECT id FROM m WHERE TRUE ${keyset} ORDER BY seq LIMIT ${page.limit + 1} OFFSET ${offset})
      ORDER BY seq`
    // an empty page past the end still owes the total
    const total =
      rows.length > 0
        ? rows[0]._total
        : (yield* sql<{
            total: number
          }>`${matches} SELECT count(*)::int AS total FROM (SELECT 1 FROM m LIMIT ${FEATURE_TOTAL_CAP}) c`)[0].total
    // `_total` rides on the rows to the envelope, which drops it with `seq` (one copy of each row, not two)
    return { rows: rows.slice(0, page.limit), total, hasMore: rows.length > page.limit }
  })

export const featureTypeCounts = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{ type: string; count: number; active_count: number }>`
    SELECT feature_type AS type, count(*)::int AS count, (count(*) FILTER (WHERE is_active))::int AS active_count
    FROM features GROUP BY feature_type ORDER BY feature_type`
)

/**
 * The feature types held, read by skipping along the type index (one probe per type, milliseconds
 * on millions of rows) where the counts above scan the whole table. Lists need only the names,
 * for their unknown-type warnings.
 */
export const presentFeatureTypes = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{ type: string }>`
    WITH RECURSIVE t(type) AS (
      (SELECT feature_type FROM features ORDER BY feature_type LIMIT 1)
      UNION ALL
      SELECT (SELECT feature_type FROM features WHERE feature_type > t.type ORDER BY feature_type LIMIT 1) FROM t WHERE t.type IS NOT NULL)
    SELECT type FROM t WHERE type IS NOT NULL`
).pipe(Effect.map((rows) => rows.map((r) => r.type)))
