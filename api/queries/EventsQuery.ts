import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import { Effect } from "effect"
import { nowMillis } from "../../shared/time/Now.js"
import { END_PASSED_GRACE_MS } from "../../shared/domain/qualityFlags.js"
import { coverBbox, coverCircle } from "../../shared/geo/h3cells.js"
import type { Bbox, Circle } from "../http/QueryParams.js"

export interface EventFilters {
  readonly ids?: ReadonlyArray<string>
  readonly jurisdictions?: ReadonlyArray<string>
  readonly types?: ReadonlyArray<string>
  readonly subTypes?: ReadonlyArray<string>
  readonly causes?: ReadonlyArray<string>
  readonly severities?: ReadonlyArray<string>
  readonly statuses?: ReadonlyArray<string>
  readonly road?: string
  readonly circle?: Circle
  readonly bbox?: Bbox
  readonly updatedAfter?: string
  readonly updatedBefore?: string
  /** plan data delay: events first seen less than this many seconds ago are not shown yet */
  readonly delaySec?: number
  /** plan history window: ended events last updated longer ago than this are not shown */
  readonly historyDays?: number
  /** one report per linked group: a report is left out when its group's representative is in the answer */
  readonly dedupe?: boolean
  /** quality flags that leave a row out (shared/domain/qualityFlags.ts) */
  readonly excludeFlags?: ReadonlyArray<string>
}

/** One page of a list in `seq` order: `afterSeq` (from a cursor) replaces the offset. */
export interface Page {
  readonly limit: number
  readonly offset: number
  readonly afterSeq?: number
}

const LIST_COLUMNS = `id, source_id, source, jurisdiction, type, sub_type, cause, severity, status, title, description,
  affected_roads, direction, lanes_affected, start_time, end_time, estimated_end_time, latitude, longitude,
  road_class, last_updated, created_at, represented_by, seq`

const FULL_COLUMNS = `id, source_id, source, jurisdiction, type, sub_type, cause, severity, status, title, description,
  CASE WHEN geometry->>'type' = 'Point' THEN geometry ELSE jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(longitude, latitude)) END AS location,
  affected_roads, direction, lanes_affected, start_time, end_time, estimated_start_time, estimated_end_time,
  source_created_at, source_updated_at, latitude, longitude, road_class, metadata, last_updated, created_at,
  archived_at, archive_reason, represented_by`

/**
 * An event's links to other sources' reports of it as one JSON column, strongest first,
 * NULL when it has none: read in the statement that reads the rows, not in one of its own (each
 * statement costs the API about half a millisecond of CPU: bench:load). `EventLinks`
 * decodes it. Given the column that holds the event's id; made once per use, as constants.
 */
const relatedColumn = (idColumn: "p.id" | "events.id") => `(
  SELECT json_agg(json_build_object('id', l.related_id, 'source', r.source, 'reason', l.reason, 'confidence', l.confidence)
                  ORDER BY l.confidence DESC, l.related_id)
  FROM event_links l JOIN events r ON r.id = l.related_id WHERE l.event_id = ${idColumn}) AS related`
/** the links of a list's page rows (`p`, the page inside its statement) */
const RELATED_OF_PAGE = relatedColumn("p.id")
/** the links of rows read straight from `events` */
const RELATED_OF_ROW = relatedColumn("events.id")

/** The time before which an active event's end has passed, for a question asked at `nowMs`. */
const passedBefore = (nowMs: number) => new Date(nowMs - END_PASSED_GRACE_MS).toISOString()

/**
 * The flags an event is published with: those its record carries, and `end_time_passed` worked out
 * at the question's time (shared/domain/qualityFlags.ts publishedFlags, in SQL).
 */
const qualityFlagsColumn = (sql: SqlClient.SqlClient, nowMs: number) => sql`CASE
  WHEN status = 'active' AND COALESCE(end_time, estimated_end_time) < ${passedBefore(nowMs)}::timestamptz
    AND NOT ('end_time_passed' = ANY(quality_flags)) THEN array_prepend('end_time_passed'::text, quality_flags)
  ELSE quality_flags END AS quality_flags`

/** Beyond this many cells the H3 prefilter costs more than it saves; the lat/lng box does it alone. */
const MAX_PREFILTER_CELLS = 1000

const KM_PER_DEG_LAT = 111.32

/** Postgres great-circle distance in km (haversine, clamped near the antipode). */
const distanceKm = (sql: SqlClient.SqlClient, lat: number, lng: number) => sql`
  geo_haversine_km(${lat}, ${lng}, latitude, longitude)`

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => "\\" + c)

/**
 * `nowMs` is the request's clock reading: delay and history windows are measured from it, not from the database's
 * now().
 */
export const whereClauses = (sql: SqlClient.SqlClient, f: EventFilters, nowMs: number): Array<Fragment> => {
  if (f.ids) return [sql`id = ANY(${f.ids})`]
  const w: Array<Fragment> = []
  if (f.jurisdictions) w.push(sql`jurisdiction = ANY(${f.jurisdictions})`)
  if (f.types) w.push(sql`type = ANY(${f.types})`)
  if (f.subTypes) w.push(sql`lower(sub_type) = ANY(${f.subTypes.map((s) => s.toLowerCase())})`)
  if (f.causes) w.push(sql`cause = ANY(${f.causes.map((s) => s.toLowerCase())})`)
  if (f.severities) w.push(sql`severity = ANY(${f.severities})`)
  if (f.statuses) w.push(sql`status = ANY(${f.statuses})`)
  if (f.road) {
    w.push(sql`EXISTS (SELECT 1 FROM unnest(affected_roads) r WHERE r ILIKE ${"%" + escapeLike(f.road) + "%"})`)
  }
  if (f.circle) {
    const { lat, lng, radiusKm } = f.circle
    const cover = coverCircle(lat, lng, radiusKm)
    if (cover && cover.cells.length <= MAX_PREFILTER_CELLS)
      w.push(sql`${sql.literal(`h3_r${cover.res}`)} = ANY(${cover.cells}::bigint[])`)
    const dLat = radiusKm / KM_PER_DEG_LAT
    w.push(sql`latitude BETWEEN ${lat - dLat} AND ${lat + dLat}`)
    w.push(sql`${distanceKm(sql, lat, lng)} <= ${radiusKm}`)
  }
  if (f.bbox) {
    const b = f.bbox
    const cover = coverBbox(b.minLng, b.minLat, b.maxLng, b.maxLat)
    if (cover && cover.cells.length <= MAX_PREFILTER_CELLS)
      w.push(sql`${sql.literal(`h3_r${cover.res}`)} = ANY(${cover.cells}::bigint[])`)
    w.push(sql`latitude BETWEEN ${b.minLat} AND ${b.maxLat} AND longitude BETWEEN ${b.minLng} AND ${b.maxLng}`)
  }
  if (f.updatedAfter) w.push(sql`last_updated >= ${f.updatedAfter}`)
  if (f.updatedBefore) w.push(sql`last_updated < ${f.updatedBefore}`)
  if (f.delaySec && f.delaySec > 0)
    w.push(sql`created_at <= ${new Date(nowMs - f.delaySec * 1000).toISOString()}::timestamptz`)
  if (f.excludeFlags && f.excludeFlags.length > 0) {
    const stored = f.excludeFlags.filter((x) => x !== "end_time_passed")
    if (stored.length > 0) w.push(sql`NOT (quality_flags && ${stored}::text[])`)
    if (f.excludeFlags.includes("end_time_passed")) {
      w.push(
        sql`NOT (status = 'active' AND COALESCE(end_time, estimated_end_time) IS NOT NULL AND COALESCE(end_time, estimated_end_time) < ${passedBefore(nowMs)}::timestamptz)`
      )
    }
  }
  if (f.historyDays !== undefined)
    w.push(
      sql`(status = 'active' OR last_updated >= ${new Date(nowMs - f.historyDays * 86_400_000).toISOString()}::timestamptz)`
    )
  if (f.dedupe) {
    // the representative is judged by the same filters (unqualified names resolve to rep inside
    // the subquery): when it is not in the answer, this report stands in, so nothing vanishes
    const repWhere = whereClauses(sql, { ...f, dedupe: false }, nowMs)
    w.push(sql`(represented_by IS NULL OR NOT EXISTS (
      SELECT 1 FROM events rep WHERE rep.id = events.represented_by AND ${repWhere.length === 0 ? sql`TRUE` : sql.and(repWhere)}))`)
  }
  return w
}

/** Sub-types the store holds, lower case: what an unknown `sub_type` is checked against. */
export const knownSubTypes = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ v: string }>`SELECT DISTINCT lower(sub_type) AS v FROM events WHERE sub_type IS NOT NULL LIMIT 5000`
).pipe(Effect.map((rows) => rows.map((r) => r.v)))

const and = (sql: SqlClient.SqlClient, w: Array<Fragment>) => (w.length === 0 ? sql`TRUE` : sql.and(w))

export interface EventListResult {
  readonly rows: ReadonlyArray<Record<string, unknown> & { seq: number }>
  readonly total: number
  readonly hasMore: boolean
}

/**
 * One page in `seq` order (insertion order: stable while rows are added), plus the exact total,
 * in one statement: the count on the left of a lateral join, so a page past the end still answers
 * it (one row of NULL columns), and each scan keeps the plan it had as a statement of its own (the
 * page's may stop at its LIMIT along the `seq` index; the count may stay in an index). One
 * statement, not two side by side: a list holds one pooled connection, not two, and pays one
 * round trip and one statement's overhead in the API and in Postgres.
 */
export const listEvents = (f: EventFilters, page: Page) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const nowMs = yield* nowMillis
    const where = and(sql, whereClauses(sql, f, nowMs))
    const keyset = page.afterSeq !== undefined ? sql`AND seq > ${page.afterSeq}` : sql``
    const found = yield* sql<Record<string, unknown> & { seq: number; _total: number }>`
      SELECT p.*, c._total, ${sql.literal(RELATED_OF_PAGE)} FROM (SELECT count(*)::int AS _total FROM events WHERE ${where}) c
      LEFT JOIN LATERAL (
        SELECT ${sql.literal(LIST_COLUMNS)}, ${qualityFlagsColumn(sql, nowMs)} FROM events WHERE ${where} ${keyset}
        ORDER BY seq LIMIT ${page.limit + 1} OFFSET ${page.afterSeq !== undefined ? 0 : page.offset}) p ON TRUE
      ORDER BY p.seq`
    const total = found[0]._total
    // past the end: the count's one row, with no event in it
    const rows = found[0].id === null ? [] : found
    // `_total` rides on the rows to the envelope, which drops it with `seq` (one copy of each row, not two)
    return { rows: rows.slice(0, page.limit), total, hasMore: rows.length > page.limit } satisfies EventListResult
  })

export const eventsByIds = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const nowMs = yield* nowMillis
    return yield* sql<Record<string, unknown> & { seq: number }>`
      SELECT ${sql.literal(LIST_COLUMNS)}, ${qualityFlagsColumn(sql, nowMs)}, ${sql.literal(RELATED_OF_ROW)} FROM events WHERE id = ANY(${ids}) ORDER BY seq`
  })

export const getEvent = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const nowMs = yield* nowMillis
    const rows = yield* sql<Record<string, unknown>>`
      SELECT ${sql.literal(FULL_COLUMNS)}, ${qualityFlagsColumn(sql, nowMs)}, ${sql.literal(RELATED_OF_ROW)} FROM events WHERE id = ${id}`
    return rows[0] ?? null
  })

export const eventHistory = (id: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<Record<string, unknown>>`
      SELECT id, event_id, change_type, old_value, new_value, changed_at
      FROM event_history WHERE event_id = ${id} ORDER BY changed_at, id`
  )
