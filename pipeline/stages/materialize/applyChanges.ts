import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { EventChange } from "../../../shared/domain/Change.js"
import { cellsOf } from "../../../shared/geo/h3cells.js"

/**
 * Applies changes to the read model in one transaction. Idempotent: an event row only moves to
 * a higher version, history rows are unique on (change_id, change_type), so a redelivered or
 * reclaimed message changes nothing.
 */
export const applyChanges = (changes: ReadonlyArray<EventChange>) =>
  Effect.gen(function* () {
    if (changes.length === 0) return
    const sql = yield* SqlClient.SqlClient
    const content = new Map<string, EventChange>()
    const archives = new Map<string, EventChange>()
    // when a batch holds an event's creation and later updates, the row is born from the
    // newest content but keeps the creation time
    const createdAt = new Map<string, string>()
    for (const c of changes) {
      if (c.op === "created" && (!createdAt.has(c.event_id) || c.at < createdAt.get(c.event_id)!)) createdAt.set(c.event_id, c.at)
      const target = c.op === "archived" ? archives : content
      const seen = target.get(c.event_id)
      if (!seen || seen.version < c.version) target.set(c.event_id, c)
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
        h3_r3: cells.r3, h3_r5: cells.r5, h3_r7: cells.r7
      }]
    })
    const archiveRows = [...archives.values()].map((c) => ({
      id: c.event_id, version: c.version, at: c.at, reason: c.archive_reason ?? "observed", emitted_at: c.emitted_at
    }))
    const history = changes.flatMap((c) =>
      c.fields.map((f) => ({
        change_id: c.change_id, event_id: c.event_id, change_type: f.change_type,
        old_value: f.old_value, new_value: f.new_value, changed_at: c.at
      }))
    )

    yield* sql.withTransaction(
      Effect.gen(function* () {
        if (rows.length > 0) {
          yield* sql`
            INSERT INTO events AS ev (id, source, source_id, jurisdiction, type, sub_type, cause, severity, status, title,
              description, latitude, longitude, geometry, affected_roads, direction, lanes_affected, start_time, end_time,
              estimated_start_time, estimated_end_time, source_created_at, source_updated_at, road_class, metadata,
              last_updated, created_at, archived_at, archive_reason, version, content_hash, last_seen_at,
              h3_r3, h3_r5, h3_r7, emitted_at, materialized_at)
            SELECT id, source, source_id, jurisdiction, type, sub_type, cause, severity, 'active', title,
              description, latitude, longitude, geometry, ARRAY(SELECT jsonb_array_elements_text(affected_roads)),
              direction, lanes_affected, start_time, end_time, estimated_start_time, estimated_end_time,
              source_created_at, source_updated_at, road_class, metadata,
              at, created_at, NULL, NULL, version, content_hash, at, h3_r3::bigint, h3_r5::bigint, h3_r7::bigint, emitted_at, clock_timestamp()
            FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, source text, source_id text,
              jurisdiction text, type text, sub_type text, cause text, severity text, title text, description text,
              latitude double precision, longitude double precision, geometry jsonb, affected_roads jsonb,
              direction text, lanes_affected text, start_time timestamptz, end_time timestamptz,
              estimated_start_time timestamptz, estimated_end_time timestamptz, source_created_at timestamptz,
              source_updated_at timestamptz, road_class text, metadata jsonb, at timestamptz, created_at timestamptz, version bigint,
              content_hash text, h3_r3 text, h3_r5 text, h3_r7 text, emitted_at timestamptz)
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
              emitted_at = excluded.emitted_at, materialized_at = excluded.materialized_at
            WHERE ev.version < excluded.version`
        }
        if (archiveRows.length > 0) {
          yield* sql`
            UPDATE events AS ev SET status = 'archived', archived_at = x.at, archive_reason = x.reason,
              version = x.version, emitted_at = x.emitted_at, materialized_at = clock_timestamp()
            FROM jsonb_to_recordset(${JSON.stringify(archiveRows)}::jsonb)
              AS x(id text, version bigint, at timestamptz, reason text, emitted_at timestamptz)
            WHERE ev.id = x.id AND ev.version < x.version`
        }
        if (history.length > 0) {
          yield* sql`
            INSERT INTO event_history (change_id, event_id, change_type, old_value, new_value, changed_at)
            SELECT change_id, event_id, change_type, old_value, new_value, changed_at
            FROM jsonb_to_recordset(${JSON.stringify(history)}::jsonb) AS x(change_id text, event_id text,
              change_type text, old_value text, new_value text, changed_at timestamptz)
            ORDER BY changed_at
            ON CONFLICT (change_id, change_type) DO NOTHING`
        }
      })
    )
  })
