import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"

/** Another source's report of the same real-world event, as an event shows it. */
export interface RelatedEvent {
  readonly id: string
  readonly source: string
  readonly reason: string
  readonly confidence: number
}

/** The `related` column the event statements read (EventsQuery's `relatedColumn`): NULL when none. */
const RelatedColumn = Schema.NullOr(
  Schema.Array(
    Schema.Struct({ id: Schema.String, source: Schema.String, reason: Schema.String, confidence: Schema.Number })
  )
)
const decodeRelated = Schema.decodeUnknown(RelatedColumn)

/** An event's links as shown, strongest first (the column's order), confidence to two places. */
const shownRelated = (raw: unknown) =>
  Effect.map(decodeRelated(raw), (links): ReadonlyArray<RelatedEvent> =>
    (links ?? []).map((l) => ({
      id: l.id,
      source: l.source,
      reason: l.reason,
      confidence: Math.round(l.confidence * 100) / 100
    }))
  )

/** The members of linked groups, by group (its representative's id): who else reported each. */
export const groupMembers = (groups: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const out = new Map<string, Array<{ id: string; source: string }>>()
    if (groups.length === 0) return out
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: string; source: string; grp: string }>`
      SELECT id, source, COALESCE(represented_by, id) AS grp FROM events
      WHERE represented_by = ANY(${groups}) OR id = ANY(${groups})
      ORDER BY seq`
    for (const r of rows) out.set(r.grp, [...(out.get(r.grp) ?? []), { id: r.id, source: r.source }])
    return out
  })

/**
 * An event row as the API shows it, in one copy made key by key (an object rest and a spread made
 * two): without the bookkeeping `represented_by`, without `lanes_affected` when the source did not
 * say (SPEC §2.1: a string, omitted rather than null), and with `related[]` last.
 */
const shownRow = <R extends Record<string, unknown>>(
  row: R,
  related: ReadonlyArray<RelatedEvent>,
  alsoReportedBy: ReadonlyArray<{ id: string; source: string }> | undefined
): R => {
  const out: Record<string, unknown> = {}
  for (const k in row) {
    if (k === "represented_by" || k === "related" || (k === "lanes_affected" && row[k] === null)) continue
    out[k] = row[k]
  }
  out.related = related
  if (alsoReportedBy) out.also_reported_by = alsoReportedBy
  // the row type is kept (its seq still pages the list); the added keys ride along
  return out as R
}

/**
 * Event rows, read with their `related` column, as the API shows them: `related[]` on every one
 * and, when the list was deduplicated, `also_reported_by[]` (the other members of its group).
 */
export const withLinks = <R extends Record<string, unknown>>(rows: ReadonlyArray<R>, dedupe: boolean) =>
  Effect.gen(function* () {
    const groupOf = (r: R) => String(r.represented_by ?? r.id)
    const members = dedupe
      ? yield* groupMembers([
          ...new Set(rows.filter((r) => r.represented_by != null || r.related != null).map(groupOf))
        ])
      : new Map<string, Array<{ id: string; source: string }>>()
    const out: Array<R> = []
    for (const r of rows) {
      // most events have no links: no decoding, no effect step for those
      const related = r.related === null || r.related === undefined ? [] : yield* shownRelated(r.related)
      out.push(shownRow(r, related, dedupe ? (members.get(groupOf(r)) ?? []).filter((m) => m.id !== r.id) : undefined))
    }
    return out
  })
