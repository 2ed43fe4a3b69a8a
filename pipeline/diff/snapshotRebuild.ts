import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { EventStatus, Severity } from "../../shared/domain/Event.js"
import { nowMillis } from "../../shared/time/Now.js"
import { type SnapEntry, TOMBSTONE_MS } from "./Differ.js"
import type { FeatureSnap } from "./FeatureDiffer.js"
import type { PriceSnap } from "./PriceDiffer.js"

/** A source's event snapshot as Postgres (the read model) has it: active events and recent tombstones. */
export const eventSnapshotFromPg = (source: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const tombstonesSince = new Date((yield* nowMillis) - TOMBSTONE_MS).toISOString()
    const rows = yield* sql<{
      id: string
      source_id: string
      version: number
      content_hash: string
      severity: Severity
      status: EventStatus
      end_at: string | null
      lanes_affected: string | null
      last_seen_at: string
      archived_at: string | null
      jurisdiction: string
      type: string
      sub_type: string | null
      cause: string | null
      road_name: string | null
    }>`
      SELECT id, source_id, version, content_hash, severity, status, COALESCE(end_time, estimated_end_time) AS end_at,
             lanes_affected, last_seen_at, archived_at, jurisdiction, type, sub_type, cause, affected_roads[1] AS road_name
      FROM events
      WHERE source = ${source}
        AND (status = 'active' OR archived_at > ${tombstonesSince}::timestamptz)`
    return new Map(
      rows.map(
        (r) =>
          [
            r.source_id,
            {
              id: r.id,
              v: r.version,
              h: r.content_hash,
              sev: r.severity,
              st: r.status,
              end: r.end_at,
              lanes: r.lanes_affected,
              seen: Date.parse(r.last_seen_at),
              ...(r.archived_at ? { ax: Date.parse(r.archived_at) } : {}),
              k: {
                jurisdiction: r.jurisdiction,
                type: r.type,
                sub_type: r.sub_type,
                cause: r.cause,
                severity: r.severity,
                road_name: r.road_name
              }
            } satisfies SnapEntry
          ] as const
      )
    )
  })

/** A source's feature snapshot from Postgres: every feature, active or not. */
export const featureSnapshotFromPg = (source: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      id: string
      source_id: string
      version: number
      content_hash: string
      is_active: boolean
      last_seen_at: string
      jurisdiction: string
      feature_type: string
    }>`
      SELECT id, source_id, version, content_hash, is_active, last_seen_at, jurisdiction, feature_type
      FROM features WHERE source = ${source}`
    return new Map(
      rows.map(
        (r) =>
          [
            r.source_id,
            {
              id: r.id,
              v: r.version,
              h: r.content_hash,
              act: r.is_active,
              seen: Date.parse(r.last_seen_at),
              k: { jurisdiction: r.jurisdiction, feature_type: r.feature_type }
            } satisfies FeatureSnap
          ] as const
      )
    )
  })

/**
 * A price source's snapshot from Postgres. Content hashes are not stored for prices, so each
 * row is marked changed once after a rebuild; the version check makes that write harmless.
 */
export const priceSnapshotFromPg = (source: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ key: string; version: number }>`
      SELECT concat_ws('|', jurisdiction, area, fuel_type, to_char(period_date, 'YYYY-MM-DD')) AS key, version
      FROM fuel_prices WHERE source = ${source}`
    return new Map(rows.map((r) => [r.key, { v: r.version, h: "", seen: 0 } satisfies PriceSnap] as const))
  })
