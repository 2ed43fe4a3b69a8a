import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { END_PASSED_GRACE_MS } from "../../shared/domain/qualityFlags.js"
import { nowMillis } from "../../shared/time/Now.js"
import { cached } from "../cached.js"

/** Per source, how many of the records its feed now holds the editor repaired, and flagged, by class. */
export interface SourceQuality {
  readonly repaired: Record<string, number>
  readonly flagged: Record<string, number>
}

export const NO_QUALITY: SourceQuality = { repaired: {}, flagged: {} }

/**
 * Counted over what each source's feed lists now (its active events, its features): the records of
 * its last read, whether they were decoded again or unchanged. `end_time_passed` is judged now,
 * as the API publishes it; a feature's `stale_reading` is a parking count too old to be current.
 */
export const sourceQuality = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cut = new Date((yield* nowMillis) - END_PASSED_GRACE_MS).toISOString()
  const rows = yield* sql<{ source: string; what: "repaired" | "flagged"; k: string; n: number }>`
    SELECT source, what, k, count(*)::int AS n FROM (
      SELECT source, 'flagged' AS what, unnest(quality_flags) AS k FROM events WHERE status = 'active'
      UNION ALL
      SELECT source, 'flagged', 'end_time_passed' FROM events
      WHERE status = 'active' AND COALESCE(end_time, estimated_end_time) < ${cut}::timestamptz AND NOT ('end_time_passed' = ANY(quality_flags))
      UNION ALL
      SELECT e.source, 'repaired', r.k FROM events e,
        jsonb_array_elements_text(CASE WHEN jsonb_typeof(e.metadata->'repairs') = 'array' THEN e.metadata->'repairs' ELSE '[]'::jsonb END) AS r(k)
      WHERE e.status = 'active'
      UNION ALL
      SELECT source, 'flagged', 'stale_reading' FROM features WHERE properties->>'stale' = 'true'
    ) x GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`
  const out = new Map<string, { repaired: Record<string, number>; flagged: Record<string, number> }>()
  for (const r of rows) {
    const q = out.get(r.source) ?? { repaired: {}, flagged: {} }
    q[r.what][r.k] = r.n
    out.set(r.source, q)
  }
  return out as ReadonlyMap<string, SourceQuality>
})

/** Counted at most once a minute: a scan of every active event. */
export const sourceQualityCached = cached(60_000, sourceQuality)
