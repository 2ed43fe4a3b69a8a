import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { FeatureChange } from "../../../shared/domain/Change.js"
import { type HistoryColumns, historyColumns, insertHistory, keepEarliestCreation, lockIds } from "./historyRows.js"
import { bboxOf } from "../../../shared/geo/bbox.js"
import { cellsAlong, cellsOf, parentAt5 } from "../../../shared/geo/h3cells.js"
import { CRITICAL_FEATURE_TYPES } from "../../../shared/routing/hazards/routeHazards.js"
import { markChangedCells } from "./markChangedCells.js"

/** A feature's index rows: its point's cells, plus every cell its line or polygon covers. */
export const cellRows = (r: {
  id: string
  feature_type: string
  latitude: number
  longitude: number
  geometry: { type: string; coordinates: unknown } | null
}) => {
  const own = cellsOf(r.latitude, r.longitude)
  const rows = new Map<string, { res: number; cell: string; feature_type: string; feature_id: string }>()
  const add = (res: number, cell: string) =>
    rows.set(`${res}:${cell}`, { res, cell, feature_type: r.feature_type, feature_id: r.id })
  add(3, own.r3)
  add(5, own.r5)
  add(7, own.r7)
  if (r.geometry) for (const c of cellsAlong(r.geometry)) add(c.res, c.cell)
  return [...rows.values()]
}

/**
 * The res-5 cells to mark for a feature's cell rows: its own res-5 cells and the parents of its
 * res-7 ones. A line's res-5 cells are worked out from its points apart from its res-7 ones, so
 * near a cell's edge a res-7 cell's parent may not be among them, and readers judge res-7 reads
 * by their parents (saved routes, the API's hazard cells).
 */
const marksOf = (cells: ReadonlyArray<{ res: number; cell: string }>) =>
  cells.flatMap((c) => (c.res === 5 ? [c.cell] : c.res === 7 ? [parentAt5(c.cell)] : []))

/** Writes cell rows, copying each feature's list order and position from its row. */
export const insertCells = (
  cells: ReadonlyArray<{ res: number; cell: string; feature_type: string; feature_id: string }>
) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`
    INSERT INTO feature_cells (res, cell, feature_type, feature_id, seq, latitude, longitude, is_point)
    SELECT x.res, x.cell::bigint, x.feature_type, x.feature_id, f.seq, f.latitude, f.longitude,
           (f.geometry IS NULL OR f.geometry->>'type' = 'Point')
    FROM jsonb_to_recordset(${JSON.stringify(cells)}::jsonb) AS x(res smallint, cell text, feature_type text, feature_id text)
    JOIN features f ON f.id = x.feature_id
    ON CONFLICT DO NOTHING`
  )

/** A feature row as written: the feature, its box, and the change's bookkeeping. */
const featureRow = (
  c: FeatureChange & { feature: NonNullable<FeatureChange["feature"]> },
  createdAt: ReadonlyMap<string, string>
) => {
  const f = c.feature
  const box = bboxOf(f.geometry) ?? {
    min_lat: f.latitude,
    min_lng: f.longitude,
    max_lat: f.latitude,
    max_lng: f.longitude
  }
  return {
    ...f,
    ...box,
    id: c.feature_id,
    source: c.source,
    version: c.version,
    content_hash: c.content_hash,
    at: c.at,
    created_at: createdAt.get(c.feature_id) ?? c.at
  }
}

/** What a batch's transaction writes, worked out before it. */
interface FeaturePlan {
  readonly touched: ReadonlyArray<string>
  readonly history: HistoryColumns
  readonly rows: ReadonlyArray<ReturnType<typeof featureRow>>
  /** features whose change carried no content (a deactivation read back from history) */
  readonly bare: ReadonlySet<string>
  readonly createdIds: ReadonlyArray<string>
}

/**
 * Applies feature changes in one transaction, idempotent and order-independent like the event
 * path: a row follows the highest version that carried content; a deactivation without content
 * (the feature left the feed) is read back from history, so it still wins when it arrived
 * before the content it supersedes; the creation time is the earliest recorded. Answers the
 * res-7 cells of the critical features the batch carried (monitored routes there are checked
 * again); worked out from the batch, not from what the version check let through, so a batch
 * written again after a crash answers the same.
 */
export const applyFeatureChanges = Effect.fnUntraced(function* (changes: ReadonlyArray<FeatureChange>) {
  if (changes.length === 0) return []
  const sql = yield* SqlClient.SqlClient
  const latest = new Map<string, FeatureChange & { feature: NonNullable<FeatureChange["feature"]> }>()
  const createdAt = new Map<string, string>()
  const bare = new Set<string>()
  for (const c of changes) {
    if (c.op === "created" && (!createdAt.has(c.feature_id) || c.at < createdAt.get(c.feature_id)!))
      createdAt.set(c.feature_id, c.at)
    if (!c.feature) {
      bare.add(c.feature_id)
      continue
    }
    const seen = latest.get(c.feature_id)
    if (!seen || seen.version < c.version) latest.set(c.feature_id, c as never)
  }
  const rows = [...latest.values()].map((c) => featureRow(c, createdAt))
  const history = historyColumns(changes, (c) => c.feature_id)
  const touched = [...new Set([...latest.keys(), ...bare])].sort()

  yield* sql.withTransaction(writeFeatureRows(sql, { touched, history, rows, bare, createdIds: [...createdAt.keys()] }))
  return rows
    .filter((r) => CRITICAL_FEATURE_TYPES.includes(r.feature_type))
    .flatMap((r) => cellRows(r))
    .filter((c) => c.res === 7)
    .map((c) => c.cell)
})

/** The transaction's body, made once (see applyEventChanges.ts's writeEventPlanIn). */
const writeFeatureRows = Effect.fnUntraced(function* (sql: SqlClient.SqlClient, plan: FeaturePlan) {
  const { touched, history, rows, bare } = plan
  yield* lockIds(8, touched)
  yield* insertHistory("feature_history", history)
  const upserted =
    rows.length === 0
      ? []
      : yield* sql<{ id: string; inserted: boolean }>`
    INSERT INTO features AS ft (id, source, source_id, jurisdiction, feature_type, name, description, latitude,
      longitude, geometry, min_lat, min_lng, max_lat, max_lng, road_name, direction, is_active, start_time, end_time, estimated_start_time,
      estimated_end_time, properties, has_details, last_updated, created_at, version, content_hash,
      last_seen_at, materialized_at)
    SELECT id, source, source_id, jurisdiction, feature_type, name, description, latitude, longitude, geometry,
      min_lat, min_lng, max_lat, max_lng, road_name, direction, is_active, start_time, end_time, estimated_start_time, estimated_end_time,
      properties, has_details, at, created_at, version, content_hash, at, clock_timestamp()
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, source text, source_id text,
      jurisdiction text, feature_type text, name text, description text, latitude double precision,
      longitude double precision, geometry jsonb, min_lat double precision, min_lng double precision,
      max_lat double precision, max_lng double precision, road_name text, direction text, is_active boolean,
      start_time timestamptz, end_time timestamptz, estimated_start_time timestamptz,
      estimated_end_time timestamptz, properties jsonb, has_details boolean, at timestamptz,
      created_at timestamptz, version bigint, content_hash text)
    ON CONFLICT (id) DO UPDATE SET
      jurisdiction = excluded.jurisdiction, feature_type = excluded.feature_type, name = excluded.name,
      description = excluded.description, latitude = excluded.latitude, longitude = excluded.longitude,
      geometry = excluded.geometry, min_lat = excluded.min_lat, min_lng = excluded.min_lng,
      max_lat = excluded.max_lat, max_lng = excluded.max_lng, road_name = excluded.road_name, direction = excluded.direction,
      is_active = excluded.is_active, start_time = excluded.start_time, end_time = excluded.end_time,
      estimated_start_time = excluded.estimated_start_time, estimated_end_time = excluded.estimated_end_time,
      properties = excluded.properties, has_details = excluded.has_details,
      last_updated = CASE WHEN ft.content_hash = excluded.content_hash THEN ft.last_updated ELSE excluded.last_updated END,
      version = excluded.version, content_hash = excluded.content_hash, last_seen_at = excluded.last_seen_at,
      materialized_at = excluded.materialized_at
    WHERE ft.version < excluded.version
    RETURNING id, (xmax = 0) AS inserted`
  // cells follow the row's current place and type; a row the version check left alone keeps its own
  const moved = rows.filter((r) => upserted.some((u) => u.id === r.id))
  const touchedCells: Array<string> = []
  if (moved.length > 0) {
    const old = yield* sql<{
      cell: string
      res: number
    }>`DELETE FROM feature_cells WHERE feature_id = ANY(${moved.map((r) => r.id)}) RETURNING cell::text AS cell, res`
    const cells = moved.flatMap((r) => cellRows(r))
    yield* insertCells(cells)
    touchedCells.push(...marksOf(old), ...marksOf(cells))
  }
  const inserted = new Set(upserted.filter((u) => u.inserted).map((u) => u.id))
  const recheck = [...new Set([...bare, ...inserted])]
  if (recheck.length > 0) {
    const off = yield* sql<{ id: string }>`
      UPDATE features AS ft SET is_active = false, version = h.version, last_updated = h.changed_at,
        materialized_at = clock_timestamp()
      FROM (SELECT DISTINCT ON (feature_id) feature_id, change_type, changed_at,
                   split_part(change_id, ':', 2)::bigint AS version
            FROM feature_history WHERE feature_id = ANY(${recheck})
            ORDER BY feature_id, split_part(change_id, ':', 2)::bigint DESC) h
      WHERE ft.id = h.feature_id AND h.change_type = 'deactivated' AND ft.version < h.version
      RETURNING ft.id`
    if (off.length > 0) {
      const cells = yield* sql<{
        cell: string
        res: number
      }>`SELECT cell::text AS cell, res FROM feature_cells WHERE res IN (5, 7) AND feature_id = ANY(${off.map((o) => o.id)})`
      touchedCells.push(...marksOf(cells))
    }
  }
  yield* markChangedCells(touchedCells)
  yield* keepEarliestCreation(
    "feature_history",
    plan.createdIds.filter((id) => !inserted.has(id))
  )
})
