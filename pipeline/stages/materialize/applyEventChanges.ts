import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { EventChange } from "../../../shared/domain/Change.js"
import { arrayLiteral, unitJoined as joined } from "../../../shared/db/arrayLiteral.js"
import { type HistoryColumns, historyColumns, keepEarliestCreation, lockIds } from "./historyRows.js"
import { cellsOf } from "../../../shared/geo/h3cells.js"
import { shapeBox } from "../../../shared/geo/shapeBox.js"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { roadKeys } from "./link/sameEvent.js"
import { linkEvents, type PlacedSubject } from "./link/linkEvents.js"
import { tiesOf } from "../../sources/lib/tieWithinFeed.js"

/** What linking, the cell marks and the routes to check again need of a written row. */
interface WrittenRow extends PlacedSubject {
  readonly h3_r5: string
  readonly h3_r7: string
}

const EVENT_COLUMNS = [
  "id",
  "source",
  "source_id",
  "jurisdiction",
  "type",
  "sub_type",
  "cause",
  "severity",
  "title",
  "description",
  "latitude",
  "longitude",
  "geometry",
  "roads",
  "direction",
  "lanes_affected",
  "start_time",
  "end_time",
  "estimated_start_time",
  "estimated_end_time",
  "source_created_at",
  "source_updated_at",
  "road_class",
  "metadata",
  "at",
  "created_at",
  "version",
  "content_hash",
  "h3_r3",
  "h3_r5",
  "h3_r7",
  "emitted_at",
  "keys",
  "flags",
  "box_w",
  "box_s",
  "box_e",
  "box_n"
] as const
type EventColumns = Record<(typeof EVENT_COLUMNS)[number], Array<string | number | null>>

/**
 * A batch worked out before its transaction (the consumer loop does this while the previous
 * batch is being written): the rows to upsert as columns, the history rows, the ids to lock.
 */
export interface EventPlan {
  readonly touched: ReadonlyArray<string>
  readonly columns: EventColumns
  readonly rows: ReadonlyArray<WrittenRow>
  readonly history: HistoryColumns
  readonly archivedIds: ReadonlyArray<string>
  readonly createdIds: ReadonlyArray<string>
  readonly at: string
}

export const planEventChanges = (changes: ReadonlyArray<EventChange>): EventPlan => {
  const content = new Map<string, EventChange>()
  // when a batch holds an event's creation and later updates, the row is born from the
  // newest content but keeps the creation time
  const createdAt = new Map<string, string>()
  const archived = new Set<string>()
  const touched = new Set<string>()
  for (const c of changes) {
    touched.add(c.event_id)
    if (c.op === "created" && (!createdAt.has(c.event_id) || c.at < createdAt.get(c.event_id)!))
      createdAt.set(c.event_id, c.at)
    if (c.op === "archived") {
      archived.add(c.event_id)
      continue
    }
    const seen = content.get(c.event_id)
    if (c.event && (!seen || seen.version < c.version)) content.set(c.event_id, c)
  }
  // sized once: a column grown by push makes and drops its backing store several times a batch
  const columns = Object.fromEntries(EVENT_COLUMNS.map((k) => [k, new Array(content.size)])) as unknown as EventColumns
  const rows: Array<WrittenRow> = []
  let j = 0
  for (const c of content.values()) {
    const e = c.event!
    const cells = cellsOf(e.latitude, e.longitude)
    const keys = roadKeys(e.affected_roads)
    const box = shapeBox(e.geometry, e.latitude, e.longitude)
    const put = columns
    put.id[j] = c.event_id
    put.source[j] = c.source
    put.source_id[j] = e.source_id
    put.jurisdiction[j] = e.jurisdiction
    put.type[j] = e.type
    put.sub_type[j] = e.sub_type
    put.cause[j] = e.cause
    put.severity[j] = e.severity
    put.title[j] = e.title
    put.description[j] = e.description
    put.latitude[j] = e.latitude
    put.longitude[j] = e.longitude
    put.geometry[j] = e.geometry === null ? null : JSON.stringify(e.geometry)
    put.roads[j] = joined(e.affected_roads)
    put.direction[j] = e.direction
    put.lanes_affected[j] = e.lanes_affected
    put.start_time[j] = e.start_time
    put.end_time[j] = e.end_time
    put.estimated_start_time[j] = e.estimated_start_time
    put.estimated_end_time[j] = e.estimated_end_time
    put.source_created_at[j] = e.source_created_at
    put.source_updated_at[j] = e.source_updated_at
    put.road_class[j] = e.road_class
    put.metadata[j] = JSON.stringify(e.metadata)
    put.at[j] = c.at
    put.created_at[j] = createdAt.get(c.event_id) ?? c.at
    put.version[j] = c.version
    put.content_hash[j] = c.content_hash
    put.h3_r3[j] = cells.r3
    put.h3_r5[j] = cells.r5
    put.h3_r7[j] = cells.r7
    put.emitted_at[j] = c.emitted_at
    put.keys[j] = joined(keys)
    put.flags[j] = joined(e.quality_flags ?? [])
    put.box_w[j] = box[0]
    put.box_s[j] = box[1]
    put.box_e[j] = box[2]
    put.box_n[j] = box[3]
    rows.push({
      id: c.event_id,
      source: c.source,
      type: e.type,
      cause: e.cause,
      direction: e.direction,
      affected_roads: e.affected_roads,
      road_keys: keys,
      start_time: e.start_time,
      end_time: e.end_time,
      estimated_start_time: e.estimated_start_time,
      estimated_end_time: e.estimated_end_time,
      latitude: e.latitude,
      longitude: e.longitude,
      geometry: e.geometry,
      h3_r5: cells.r5,
      h3_r7: cells.r7,
      box,
      ties: tiesOf(e.metadata)
    })
    j++
  }
  return {
    touched: [...touched].sort(),
    columns,
    rows,
    history: historyColumns(changes, (c) => c.event_id),
    archivedIds: [...archived],
    createdIds: [...createdAt.keys()],
    at: rows[0] ? content.get(rows[0].id)!.at : (changes[0]?.at ?? "")
  }
}

/**
 * Writes a planned batch to the read model in one transaction. Idempotent and order-independent:
 * - history rows are unique on (change_id, change_type), so a redelivered message adds nothing;
 * - an event row only moves to a higher version;
 * - archives are read back from history, so an archive that arrives before the event's content
 *   (a reclaimed batch, or two consumers) still wins when the content comes;
 * - per-event advisory locks order concurrent consumers touching the same event.
 * Answers whether links between reports changed (their reach is not known by jurisdiction).
 */
export const writeEventPlan = Effect.fnUntraced(function* (plan: EventPlan) {
  if (plan.touched.length === 0) return false
  const sql = yield* SqlClient.SqlClient
  const { linkMaxGapM } = yield* AppConfig
  return yield* sql.withTransaction(writeEventPlanIn(plan, sql, linkMaxGapM))
})

/**
 * The transaction's body; made once, as every generator on this path (a generator function made per call keeps what
 * it captured past young collections).
 */
const writeEventPlanIn = Effect.fnUntraced(function* (plan: EventPlan, sql: SqlClient.SqlClient, linkMaxGapM: number) {
  const c = plan.columns
  const a = (k: keyof EventColumns) => arrayLiteral(c[k])
  // the lock comes first, in its own statement: what follows must read after it is held
  yield* lockIds(7, plan.touched)
  const h = plan.history
  // history and rows in one statement; `prev` reads each row as it was before this
  // statement (a moved event leaves its old cell)
  const upserted = yield* sql<{ id: string; inserted: boolean; before: string | null }>`
      WITH history AS (
        INSERT INTO event_history (change_id, event_id, change_type, old_value, new_value, changed_at)
        SELECT change_id, subject_id, change_type, old_value, new_value, changed_at
        FROM unnest(${arrayLiteral(h.change_id)}::text[], ${arrayLiteral(h.subject_id)}::text[], ${arrayLiteral(h.change_type)}::text[],
          ${arrayLiteral(h.old_value)}::text[], ${arrayLiteral(h.new_value)}::text[], ${arrayLiteral(h.changed_at)}::timestamptz[])
          AS x(change_id, subject_id, change_type, old_value, new_value, changed_at)
        ORDER BY changed_at
        ON CONFLICT (change_id, change_type) DO NOTHING),
      prev AS (SELECT id, h3_r5 FROM events WHERE id = ANY(${a("id")}::text[])),
      up AS (
      INSERT INTO events AS ev (id, source, source_id, jurisdiction, type, sub_type, cause, severity, status, title,
        description, latitude, longitude, geometry, affected_roads, direction, lanes_affected, start_time, end_time,
        estimated_start_time, estimated_end_time, source_created_at, source_updated_at, road_class, metadata,
        last_updated, created_at, archived_at, archive_reason, version, content_hash, last_seen_at,
        h3_r3, h3_r5, h3_r7, emitted_at, materialized_at, road_keys, quality_flags, link_box)
      SELECT id, source, source_id, jurisdiction, type, sub_type, cause, severity, 'active', title,
        description, latitude, longitude, geometry_text::jsonb, string_to_array(roads_text, E'\\x1f'),
        direction, lanes_affected, start_time, end_time, estimated_start_time, estimated_end_time,
        source_created_at, source_updated_at, road_class, metadata_text::jsonb,
        at, created_at, NULL, NULL, version, content_hash, at, h3_r3, h3_r5, h3_r7, emitted_at, clock_timestamp(),
        string_to_array(keys_text, E'\\x1f'), string_to_array(flags_text, E'\\x1f'),
        box(point(box_w, box_s), point(box_e, box_n))
      FROM unnest(${a("id")}::text[], ${a("source")}::text[], ${a("source_id")}::text[],
        ${a("jurisdiction")}::text[], ${a("type")}::text[], ${a("sub_type")}::text[], ${a("cause")}::text[],
        ${a("severity")}::text[], ${a("title")}::text[], ${a("description")}::text[],
        ${a("latitude")}::float8[], ${a("longitude")}::float8[], ${a("geometry")}::text[],
        ${a("roads")}::text[], ${a("direction")}::text[], ${a("lanes_affected")}::text[],
        ${a("start_time")}::timestamptz[], ${a("end_time")}::timestamptz[], ${a("estimated_start_time")}::timestamptz[],
        ${a("estimated_end_time")}::timestamptz[], ${a("source_created_at")}::timestamptz[], ${a("source_updated_at")}::timestamptz[],
        ${a("road_class")}::text[], ${a("metadata")}::text[], ${a("at")}::timestamptz[],
        ${a("created_at")}::timestamptz[], ${a("version")}::bigint[], ${a("content_hash")}::text[],
        ${a("h3_r3")}::bigint[], ${a("h3_r5")}::bigint[], ${a("h3_r7")}::bigint[], ${a("emitted_at")}::timestamptz[],
        ${a("keys")}::text[], ${a("flags")}::text[], ${a("box_w")}::float8[], ${a("box_s")}::float8[],
        ${a("box_e")}::float8[], ${a("box_n")}::float8[])
        AS x(id, source, source_id, jurisdiction, type, sub_type, cause, severity, title, description, latitude, longitude, geometry_text,
          roads_text, direction, lanes_affected, start_time, end_time, estimated_start_time, estimated_end_time, source_created_at,
          source_updated_at, road_class, metadata_text, at, created_at, version, content_hash, h3_r3, h3_r5, h3_r7, emitted_at, keys_text, flags_text,
          box_w, box_s, box_e, box_n)
      ON CONFLICT (id) DO UPDATE SET
        jurisdiction = excluded.jurisdiction, type = excluded.type, sub_type = excluded.sub_type,
        cause = excluded.cause, severity = excluded.severity, status = 'active', title = excluded.title,
        description = excluded.description, latitude = excluded.latitude, longitude = excluded.longitude,
        geometry = excluded.geometry, affected_roads = excluded.affected_roads, direction = excluded.direction,
        lanes_affected = excluded.lanes_affected, start_time = excluded.start_time, end_time = excluded.end_time,
        estimated_start_time = excluded.estimated_start_time, estimated_end_time = excluded.estimated_end_time,
        source_created_at = excluded.source_created_at, source_updated_at = excluded.source_updated_at,
        road_class = excluded.road_class, metadata = excluded.metadata, last_updated = excluded.last_updated,
        archived_at = NULL, archive_reason = NULL, version = excluded.version,
        content_hash = excluded.content_hash, last_seen_at = excluded.last_seen_at,
        h3_r3 = excluded.h3_r3, h3_r5 = excluded.h3_r5, h3_r7 = excluded.h3_r7,
        emitted_at = excluded.emitted_at, materialized_at = excluded.materialized_at, road_keys = excluded.road_keys,
        quality_flags = excluded.quality_flags, link_box = excluded.link_box
      WHERE ev.version < excluded.version
      RETURNING id, (xmax = 0) AS inserted)
      SELECT up.id, up.inserted, prev.h3_r5::text AS before FROM up LEFT JOIN prev ON prev.id = up.id`
  const changedIds = new Set(upserted.map((u) => u.id))
  const changed = plan.rows.filter((r) => changedIds.has(r.id))
  // a newly inserted row may have been archived already (its archive came first): this
  // statement reads the history the one before wrote. It also marks, in one go, every res-5
  // cell a row left or entered (cells in order, so concurrent materializers take their locks
  // in the same order)
  const recheck = [...new Set([...plan.archivedIds, ...upserted.filter((u) => u.inserted).map((u) => u.id)])]
  const cells5 = [...upserted.flatMap((u) => (u.before === null ? [] : [u.before])), ...changed.map((r) => r.h3_r5)]
  if (recheck.length > 0 || cells5.length > 0) {
    yield* sql`
      WITH archived AS (
        UPDATE events AS ev SET status = 'archived', archived_at = h.changed_at, archive_reason = h.new_value,
          -- an archive is a change: updated_after syncs must see it
          last_updated = GREATEST(ev.last_updated, h.changed_at),
          version = h.version, materialized_at = clock_timestamp()
        FROM (SELECT DISTINCT ON (event_id) event_id, changed_at, new_value, split_part(change_id, ':', 2)::bigint AS version
              FROM event_history WHERE change_type = 'archived' AND event_id = ANY(${arrayLiteral(recheck)}::text[])
              ORDER BY event_id, split_part(change_id, ':', 2)::bigint DESC) h
        WHERE ev.id = h.event_id AND ev.version < h.version
        RETURNING ev.h3_r5)
      INSERT INTO cell_marks (cell, xid)
      SELECT c, pg_current_xact_id() FROM (
        SELECT c FROM unnest(${arrayLiteral(cells5)}::bigint[]) AS c UNION SELECT h3_r5 FROM archived ORDER BY 1) s
      ON CONFLICT (cell) DO UPDATE SET xid = excluded.xid`
  }
  const inserted = new Set(upserted.filter((u) => u.inserted).map((u) => u.id))
  const linked = yield* linkEvents(changed, inserted, linkMaxGapM, plan.at)
  yield* keepEarliestCreation(
    "event_history",
    plan.createdIds.filter((id) => !inserted.has(id))
  )
  return linked
})

/** Plans and writes one batch. */
export const applyEventChanges = (changes: ReadonlyArray<EventChange>) =>
  Effect.suspend(() => writeEventPlan(planEventChanges(changes)))
