import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { EventChange } from "../../../shared/domain/Change.js"
import { insertHistory, keepEarliestCreation, lockIds } from "./historyRows.js"
import { cellsOf } from "../../../shared/geo/h3cells.js"
import { markChangedCells, markRouteRechecks } from "./markRouteRechecks.js"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { roadKeys } from "../link/sameEvent.js"
import { linkEvents } from "../link/linkEvents.js"

/** A list of names as one text (unit separator between), split again in SQL; the separator never stays in a name. */
const joined = (names: ReadonlyArray<string>) => names.map((n) => n.replace(/\u001f/g, " ")).join("\u001f")

/**
 * Applies changes to the read model in one transaction. Idempotent and order-independent:
 * - history rows are unique on (change_id, change_type), so a redelivered message adds nothing;
 * - an event row only moves to a higher version;
 * - archives are read back from history, so an archive that arrives before the event's content
 *   (a reclaimed batch, or two consumers) still wins when the content comes;
 * - per-event advisory locks order concurrent consumers touching the same event.
 */
export const applyEventChanges = (changes: ReadonlyArray<EventChange>) =>
  Effect.gen(function* () {
    if (changes.length === 0) return
    const sql = yield* SqlClient.SqlClient
    const { linkMaxGapM } = yield* AppConfig
    const content = new Map<string, EventChange>()
    // when a batch holds an event's creation and later updates, the row is born from the
    // newest content but keeps the creation time
    const createdAt = new Map<string, string>()
    for (const c of changes) {
      if (c.op === "created" && (!createdAt.has(c.event_id) || c.at < createdAt.get(c.event_id)!)) createdAt.set(c.event_id, c.at)
      if (c.op === "archived") continue
      const seen = content.get(c.event_id)
      if (!seen || seen.version < c.version) content.set(c.event_id, c)
    }

    const rows = [...content.values()].flatMap((c) => {
      const e = c.event
      if (!e) return []
      const cells = cellsOf(e.latitude, e.longitude)
      return [{
        ...e,
        id: c.event_id,
        source: c.source,
        version: c.version,
        content_hash: c.content_hash,
        at: c.at,
        created_at: createdAt.get(c.event_id) ?? c.at,
        emitted_at: c.emitted_at,
        h3_r3: cells.r3, h3_r5: cells.r5, h3_r7: cells.r7,
        road_keys: roadKeys(e.affected_roads)
      }]
    })
    // one array per column: Postgres reads arrays far faster than a JSON document of rows
    const col = <A>(f: (r: (typeof rows)[number]) => A) => rows.map(f)
    const touched = [...new Set(changes.map((c) => c.event_id))].sort()
    const archivedIds = [...new Set(changes.filter((c) => c.op === "archived").map((c) => c.event_id))]
    const createdIds = [...createdAt.keys()]
    const history = changes.flatMap((c) =>
      c.fields.map((f) => ({
        change_id: c.change_id, subject_id: c.event_id, change_type: f.change_type,
        old_value: f.old_value, new_value: f.new_value, changed_at: c.at
      }))
    )

    yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* lockIds(7, touched)
        yield* insertHistory("event_history", history)
        // where the changed events were before this change (a moved event leaves its old cell)
        const before = rows.length === 0 ? [] : yield* sql<{ cell: string }>`SELECT h3_r5::text AS cell FROM events WHERE id = ANY(${rows.map((r) => r.id)})`
        const upserted = rows.length === 0 ? [] : yield* sql<{ id: string; inserted: boolean }>`
            INSERT INTO events AS ev (id, source, source_id, jurisdiction, type, sub_type, cause, severity, status, title,
              description, latitude, longitude, geometry, affected_roads, direction, lanes_affected, start_time, end_time,
              estimated_start_time, estimated_end_time, source_created_at, source_updated_at, road_class, metadata,
              last_updated, created_at, archived_at, archive_reason, version, content_hash, last_seen_at,
              h3_r3, h3_r5, h3_r7, emitted_at, materialized_at, road_keys)
            SELECT id, source, source_id, jurisdiction, type, sub_type, cause, severity, 'active', title,
              description, latitude, longitude, geometry_text::jsonb, string_to_array(roads_text, E'\\x1f'),
              direction, lanes_affected, start_time, end_time, estimated_start_time, estimated_end_time,
              source_created_at, source_updated_at, road_class, metadata_text::jsonb,
              at, created_at, NULL, NULL, version, content_hash, at, h3_r3::bigint, h3_r5::bigint, h3_r7::bigint, emitted_at, clock_timestamp(),
              string_to_array(keys_text, E'\\x1f')
            FROM unnest(${col((r) => r.id)}::text[], ${col((r) => r.source)}::text[], ${col((r) => r.source_id)}::text[],
              ${col((r) => r.jurisdiction)}::text[], ${col((r) => r.type)}::text[], ${col((r) => r.sub_type)}::text[], ${col((r) => r.cause)}::text[],
              ${col((r) => r.severity)}::text[], ${col((r) => r.title)}::text[], ${col((r) => r.description)}::text[],
              ${col((r) => r.latitude)}::float8[], ${col((r) => r.longitude)}::float8[], ${col((r) => (r.geometry === null ? null : JSON.stringify(r.geometry)))}::text[],
              ${col((r) => joined(r.affected_roads))}::text[], ${col((r) => r.direction)}::text[], ${col((r) => r.lanes_affected)}::text[],
              ${col((r) => r.start_time)}::timestamptz[], ${col((r) => r.end_time)}::timestamptz[], ${col((r) => r.estimated_start_time)}::timestamptz[],
              ${col((r) => r.estimated_end_time)}::timestamptz[], ${col((r) => r.source_created_at)}::timestamptz[], ${col((r) => r.source_updated_at)}::timestamptz[],
              ${col((r) => r.road_class)}::text[], ${col((r) => JSON.stringify(r.metadata))}::text[], ${col((r) => r.at)}::timestamptz[],
              ${col((r) => r.created_at)}::timestamptz[], ${col((r) => r.version)}::bigint[], ${col((r) => r.content_hash)}::text[],
              ${col((r) => r.h3_r3)}::text[], ${col((r) => r.h3_r5)}::text[], ${col((r) => r.h3_r7)}::text[], ${col((r) => r.emitted_at)}::timestamptz[],
              ${col((r) => joined(r.road_keys))}::text[])
              AS x(id, source, source_id, jurisdiction, type, sub_type, cause, severity, title, description, latitude, longitude, geometry_text,
                roads_text, direction, lanes_affected, start_time, end_time, estimated_start_time, estimated_end_time, source_created_at,
                source_updated_at, road_class, metadata_text, at, created_at, version, content_hash, h3_r3, h3_r5, h3_r7, emitted_at, keys_text)
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
              emitted_at = excluded.emitted_at, materialized_at = excluded.materialized_at, road_keys = excluded.road_keys
            WHERE ev.version < excluded.version
            RETURNING id, (xmax = 0) AS inserted`
        // a newly inserted row may have been archived already (its archive came first)
        const recheck = [...new Set([...archivedIds, ...upserted.filter((u) => u.inserted).map((u) => u.id)])]
        const archivedCells = recheck.length === 0 ? [] : yield* sql<{ cell: string }>`
            UPDATE events AS ev SET status = 'archived', archived_at = h.changed_at, archive_reason = h.new_value,
              -- an archive is a change: updated_after syncs must see it
              last_updated = GREATEST(ev.last_updated, h.changed_at),
              version = h.version, materialized_at = clock_timestamp()
            FROM (SELECT DISTINCT ON (event_id) event_id, changed_at, new_value, split_part(change_id, ':', 2)::bigint AS version
                  FROM event_history WHERE change_type = 'archived' AND event_id = ANY(${recheck})
                  ORDER BY event_id, split_part(change_id, ':', 2)::bigint DESC) h
            WHERE ev.id = h.event_id AND ev.version < h.version
            RETURNING ev.h3_r5::text AS cell`
        // new or changed content may put a hazard on a monitored route
        const changed = new Set(upserted.map((u) => u.id))
        yield* markRouteRechecks(rows.filter((r) => changed.has(r.id)).map((r) => r.h3_r7))
        yield* markChangedCells([...before.map((b) => b.cell), ...rows.filter((r) => changed.has(r.id)).map((r) => r.h3_r5), ...archivedCells.map((a) => a.cell)])
        const inserted = new Set(upserted.filter((u) => u.inserted).map((u) => u.id))
        yield* linkEvents(rows.filter((r) => changed.has(r.id)), inserted, linkMaxGapM, rows[0]?.at ?? changes[0].at)
        yield* keepEarliestCreation("event_history", createdIds.filter((id) => !inserted.has(id)))
      })
    )
  })
