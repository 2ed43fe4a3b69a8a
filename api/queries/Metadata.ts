import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"
import { keyedCache } from "../cached.js"
import { NO_QUALITY, sourceQualityCached } from "./SourceQuality.js"

export interface SourceCreditRow {
  readonly name: string
  readonly text: string
  readonly url: string | null
  readonly license: string | null
}

/** Sources as the catalogue last registered them, with their latest poll. */
export const dataSources = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.zip(
    sql<{
      id: string
      adapter: string
      jurisdiction: string
      poll_interval_s: number
      attribution: SourceCreditRow | null
      format: string | null
      kind: string | null
      yields: ReadonlyArray<string>
      last_poll_at: string | null
      last_outcome: string | null
      read_at: string | null
      read_records: number | null
      read_rejected: number | null
      read_reasons: ReadonlyArray<{ reason: string; count: number; example: string }> | null
    }>`
    SELECT s.id, s.adapter, s.jurisdiction, s.poll_interval_s, s.attribution, s.format, s.kind, s.yields,
           p.started_at AS last_poll_at, p.outcome AS last_outcome,
           r.started_at AS read_at, r.record_count AS read_records, r.rejected_count AS read_rejected, r.rejected_reasons AS read_reasons
    FROM sources s
    LEFT JOIN LATERAL (SELECT started_at, outcome FROM source_polls WHERE source = s.id ORDER BY started_at DESC, id DESC LIMIT 1) p ON true
    -- a 304 or a failed fetch reads no records: what was refused is the last payload actually read
    LEFT JOIN LATERAL (SELECT started_at, record_count, rejected_count, rejected_reasons FROM source_polls
                       WHERE source = s.id AND outcome IN ('ok', 'empty') ORDER BY started_at DESC, id DESC LIMIT 1) r ON true
    ORDER BY s.id`,
    sourceQualityCached
  )
).pipe(
  Effect.map(([rows, quality]) =>
    rows.map((r) => ({
      id: r.id,
      jurisdiction: r.jurisdiction,
      format: r.format ?? r.adapter,
      kind: r.kind ?? "unknown",
      yields: r.yields,
      poll_interval_s: r.poll_interval_s,
      last_poll_at: r.last_poll_at,
      last_outcome: r.last_outcome,
      requires_attribution: r.attribution !== null,
      attribution: r.attribution,
      last_read:
        r.read_at === null
          ? null
          : {
              polled_at: r.read_at,
              records: r.read_records ?? 0,
              rejected: r.read_rejected ?? 0,
              top_reasons: r.read_reasons ?? [],
              quality: quality.get(r.id) ?? NO_QUALITY
            }
    }))
  )
)

export const coverageEntries = (jurisdictions: ReadonlyArray<string> | undefined) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{
        jurisdiction: string
        kind: string
        type: string
        row_count: number
        latest_data_at: string | null
        last_nonzero_at: string | null
      }>`
      SELECT jurisdiction, kind, type, row_count, latest_data_at, last_nonzero_at FROM coverage
      WHERE ${jurisdictions ? sql`jurisdiction = ANY(${jurisdictions})` : sql`TRUE`}
      ORDER BY jurisdiction, kind, type`
  )

export const statsSummary = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [j] = yield* sql<{ total: number; active: number; by_country: Record<string, number> }>`
    SELECT count(*)::int AS total, (count(*) FILTER (WHERE is_active))::int AS active,
           (SELECT jsonb_object_agg(country, n) FROM (SELECT country, count(*)::int AS n FROM jurisdictions GROUP BY country) c) AS by_country
    FROM jurisdictions`
  const byType = yield* sql<{
    k: string
    n: number
  }>`SELECT type AS k, count(*)::int AS n FROM events WHERE status = 'active' GROUP BY type`
  const bySeverity = yield* sql<{
    k: string
    n: number
  }>`SELECT severity AS k, count(*)::int AS n FROM events WHERE status = 'active' GROUP BY severity`
  const features = yield* sql<{
    k: string
    n: number
  }>`SELECT feature_type AS k, count(*)::int AS n FROM features GROUP BY feature_type`
  const [sync] = yield* sql<{ last_sync: string | null }>`SELECT max(last_sync_at) AS last_sync FROM jurisdictions`
  const obj = (rows: ReadonlyArray<{ k: string; n: number }>) => Object.fromEntries(rows.map((r) => [r.k, r.n]))
  return {
    jurisdictions: { total: j.total, active: j.active, by_country: j.by_country ?? {} },
    events: { active: byType.reduce((s, r) => s + r.n, 0), by_type: obj(byType), by_severity: obj(bySeverity) },
    features: { total: features.reduce((s, r) => s + r.n, 0), by_type: obj(features) },
    last_sync: sync.last_sync
  }
})

/**
 * Credits by set of sources, kept a minute: a source's attribution comes from its adapter's code,
 * so it changes only when a new version registers its sources, and a list answer would otherwise
 * wait on a second round trip for the same few rows every time. A new source is a new key.
 */
const creditsBySources = keyedCache<ReadonlyArray<SourceCreditRow>, SqlError, SqlClient.SqlClient>(60_000, 1000)

/** The credits the given sources require, once each. */
export const attributionFor = (sourceIds: ReadonlyArray<string>) =>
  sourceIds.length === 0
    ? Effect.succeed([] as ReadonlyArray<SourceCreditRow>)
    : creditsBySources(
        [...sourceIds].sort().join("\n"),
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{ attribution: SourceCreditRow }>`
          SELECT DISTINCT ON (attribution->>'name') attribution FROM sources
          WHERE id = ANY(${sourceIds}) AND attribution IS NOT NULL ORDER BY attribution->>'name'`
        ).pipe(Effect.map((rows) => rows.map((r) => r.attribution)))
      )
