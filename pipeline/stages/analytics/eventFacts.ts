import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { latLngToCell } from "h3-js"
import type { EventChange } from "../../../shared/domain/Change.js"

/** The finest H3 resolution kept per event; hotspots group by its parents (SQL h3_parent). */
export const FACT_RESOLUTION = 9

const cellOf = (lat: number, lng: number) => BigInt("0x" + latLngToCell(lat, lng, FACT_RESOLUTION)).toString()

interface ContentRow {
  event_id: string
  jurisdiction: string
  type: string
  severity: string
  roads: ReadonlyArray<string>
  latitude: number
  longitude: number
  h3_r9: string
  start_time: string | null
  created_at: string
  content_version: number
}

interface ArchiveRow {
  event_id: string
  jurisdiction: string
  type: string
  severity: string
  archived_at: string
  archive_reason: string
  archive_version: number
}

/**
 * One row per event (the newest version wins; the earliest creation time is kept), so a batch
 * never touches a row twice and a replayed batch changes nothing.
 */
export const contentRows = (changes: ReadonlyArray<EventChange>): Array<ContentRow> => {
  const rows = new Map<string, ContentRow>()
  for (const c of changes) {
    if (c.event === undefined) continue
    const e = c.event
    const row: ContentRow = {
      event_id: c.event_id,
      jurisdiction: e.jurisdiction,
      type: e.type,
      severity: e.severity,
      roads: e.affected_roads.filter((r) => r.trim() !== ""),
      latitude: e.latitude,
      longitude: e.longitude,
      h3_r9: cellOf(e.latitude, e.longitude),
      start_time: e.start_time,
      created_at: c.at,
      content_version: c.version
    }
    const seen = rows.get(c.event_id)
    if (seen === undefined) rows.set(c.event_id, row)
    else {
      const newer = row.content_version > seen.content_version ? row : seen
      rows.set(c.event_id, {
        ...newer,
        created_at: row.created_at < seen.created_at ? row.created_at : seen.created_at
      })
    }
  }
  return [...rows.values()]
}

export const archiveRows = (changes: ReadonlyArray<EventChange>): Array<ArchiveRow> => {
  const rows = new Map<string, ArchiveRow>()
  for (const c of changes) {
    if (c.op !== "archived") continue
    const seen = rows.get(c.event_id)
    if (seen !== undefined && seen.archive_version >= c.version) continue
    rows.set(c.event_id, {
      event_id: c.event_id,
      jurisdiction: c.keys.jurisdiction,
      type: c.keys.type,
      severity: c.keys.severity,
      archived_at: c.at,
      archive_reason: c.archive_reason ?? "observed",
      archive_version: c.version
    })
  }
  return [...rows.values()]
}

/**
 * Content and archive are versioned apart: content newer than the archive revives the event
 * (it came back into its feed); an archive newer than the content retires it.
 */
export const upsertContent = (rows: ReadonlyArray<ContentRow>) =>
  rows.length === 0
    ? Effect.void
    : Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`
    INSERT INTO analytics_events AS a (event_id, jurisdiction, type, severity, roads, latitude, longitude, h3_r9,
                                       start_time, created_at, content_version)
    SELECT event_id, jurisdiction, type, severity, roads, latitude, longitude, h3_r9, start_time, created_at, content_version
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(event_id text, jurisdiction text, type text, severity text,
      roads text[], latitude float8, longitude float8, h3_r9 bigint, start_time timestamptz, created_at timestamptz, content_version bigint)
    ON CONFLICT (event_id) DO UPDATE SET
      jurisdiction = CASE WHEN excluded.content_version > a.content_version THEN excluded.jurisdiction ELSE a.jurisdiction END,
      type = CASE WHEN excluded.content_version > a.content_version THEN excluded.type ELSE a.type END,
      severity = CASE WHEN excluded.content_version > a.content_version THEN excluded.severity ELSE a.severity END,
      roads = CASE WHEN excluded.content_version > a.content_version THEN excluded.roads ELSE a.roads END,
      latitude = CASE WHEN excluded.content_version > a.content_version THEN excluded.latitude ELSE a.latitude END,
      longitude = CASE WHEN excluded.content_version > a.content_version THEN excluded.longitude ELSE a.longitude END,
      h3_r9 = CASE WHEN excluded.content_version > a.content_version THEN excluded.h3_r9 ELSE a.h3_r9 END,
      start_time = CASE WHEN excluded.content_version > a.content_version THEN excluded.start_time ELSE a.start_time END,
      archived_at = CASE WHEN excluded.content_version > a.archive_version THEN NULL ELSE a.archived_at END,
      archive_reason = CASE WHEN excluded.content_version > a.archive_version THEN NULL ELSE a.archive_reason END,
      created_at = LEAST(a.created_at, excluded.created_at),
      content_version = GREATEST(a.content_version, excluded.content_version)
    WHERE excluded.content_version > a.content_version OR a.created_at IS NULL OR excluded.created_at < a.created_at`
      ).pipe(Effect.asVoid)

export const upsertArchives = (rows: ReadonlyArray<ArchiveRow>) =>
  rows.length === 0
    ? Effect.void
    : Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`
    INSERT INTO analytics_events AS a (event_id, jurisdiction, type, severity, archived_at, archive_reason, archive_version)
    SELECT event_id, jurisdiction, type, severity, archived_at, archive_reason, archive_version
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(event_id text, jurisdiction text, type text, severity text,
      archived_at timestamptz, archive_reason text, archive_version bigint)
    ON CONFLICT (event_id) DO UPDATE SET archived_at = excluded.archived_at, archive_reason = excluded.archive_reason,
      archive_version = excluded.archive_version
    WHERE excluded.archive_version > a.archive_version AND excluded.archive_version > a.content_version`
      ).pipe(Effect.asVoid)
