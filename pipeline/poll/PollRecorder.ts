import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Rejection } from "../sources/Adapter.js"
import { topReasons } from "./rejectionReasons.js"
import type { SourceConfig } from "./SourceCatalogue.js"
import { nowIso } from "../../shared/time/Now.js"

export type PollOutcome = "ok" | "not_modified" | "empty" | "error"

export interface PollRecord {
  readonly source: string
  readonly startedAt: Date
  readonly outcome: PollOutcome
  readonly latencyMs: number
  readonly httpStatus: number | null
  readonly recordCount: number
  readonly rejected: ReadonlyArray<Rejection>
  readonly changeCount: number
  readonly error: string | null
}

/** Samples kept per poll; the count is exact, the samples are for a person to look at. */
const MAX_SAMPLES = 20

/** Every poll's outcome and quarantined records go to Postgres, for /status and for people. */
export const recordPoll = (r: PollRecord) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      INSERT INTO source_polls (source, started_at, outcome, latency_ms, http_status, record_count, rejected_count, change_count, error, rejected_reasons)
      VALUES (${r.source}, ${r.startedAt.toISOString()}, ${r.outcome}, ${Math.round(r.latencyMs)}, ${r.httpStatus},
              ${r.recordCount}, ${r.rejected.length}, ${r.changeCount}, ${r.error}, ${JSON.stringify(topReasons(r.rejected))}::jsonb)`
    if (r.rejected.length > 0) {
      const rows = r.rejected.slice(0, MAX_SAMPLES).map((x) => ({ reason: x.reason, sample: x.sample ?? null }))
      yield* sql`
        INSERT INTO quarantine (source, polled_at, reason, sample)
        SELECT ${r.source}, ${r.startedAt.toISOString()}, x.reason, x.sample
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(reason text, sample jsonb)`
    }
    if (r.outcome === "ok" || r.outcome === "not_modified") {
      yield* sql`UPDATE jurisdictions SET last_sync_at = ${r.startedAt.toISOString()}
                 WHERE code = (SELECT jurisdiction FROM sources WHERE id = ${r.source})`
    }
  })

/** What the `sources` table records of a source's adapter; an adapter object is one. */
export interface AdapterMeta {
  readonly attribution: unknown
  readonly formats: ReadonlyArray<string>
  readonly kind: string
  readonly yields: ReadonlyArray<string>
}

export const registerSources = (
  sources: ReadonlyArray<SourceConfig>,
  metaOf: (adapter: string) => AdapterMeta | null | undefined
) =>
  Effect.gen(function* () {
    if (sources.length === 0) return
    const sql = yield* SqlClient.SqlClient
    const now = yield* nowIso
    const rows = sources.map((s) => {
      const meta = metaOf(s.adapter)
      return {
        id: s.id,
        adapter: s.adapter,
        jurisdiction: s.jurisdiction,
        url: s.url ?? Object.values(s.urls ?? {}).join(" "),
        poll_interval_s: Math.ceil(s.poll_interval_s),
        attribution: meta?.attribution ?? null,
        format: meta?.formats[0] ?? null,
        kind: meta?.kind ?? null,
        yields: meta?.yields ?? []
      }
    })
    yield* sql`
      INSERT INTO sources (id, adapter, jurisdiction, url, poll_interval_s, attribution, format, kind, yields, updated_at)
      SELECT id, adapter, jurisdiction, url, poll_interval_s, attribution, format, kind, ARRAY(SELECT jsonb_array_elements_text(yields)), ${now}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(id text, adapter text, jurisdiction text, url text, poll_interval_s int, attribution jsonb, format text, kind text, yields jsonb)
      ON CONFLICT (id) DO UPDATE SET adapter = excluded.adapter, jurisdiction = excluded.jurisdiction,
        url = excluded.url, poll_interval_s = excluded.poll_interval_s, attribution = excluded.attribution,
        format = excluded.format, kind = excluded.kind, yields = excluded.yields, updated_at = ${now}`
  })
