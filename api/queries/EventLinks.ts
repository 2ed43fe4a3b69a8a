import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Another source's report of the same real-world event (issue 13), as an event shows it. */
export interface RelatedEvent {
  readonly id: string
  readonly source: string
  readonly reason: string
  readonly confidence: number
}

/** Each event's links, strongest first; an event with none maps to an empty list. */
export const relatedOf = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const out = new Map<string, Array<RelatedEvent>>(ids.map((id) => [id, []]))
    if (ids.length === 0) return out
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<RelatedEvent & { event_id: string }>`
      SELECT l.event_id, l.related_id AS id, e.source, l.reason, l.confidence
      FROM event_links l JOIN events e ON e.id = l.related_id
      WHERE l.event_id = ANY(${ids})
      ORDER BY l.event_id, l.confidence DESC, l.related_id`
    for (const { event_id, ...r } of rows) out.get(event_id)?.push({ ...r, confidence: Math.round(r.confidence * 100) / 100 })
    return out
  })

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
 * Event rows as the API shows them: `related[]` on every one and, when the list was deduplicated,
 * `also_reported_by[]` (the other members of its group). The bookkeeping column goes.
 */
export const withLinks = <R extends Record<string, unknown>>(rows: ReadonlyArray<R>, dedupe: boolean) =>
  Effect.gen(function* () {
    const related = yield* relatedOf(rows.map((r) => String(r.id)))
    const groupOf = (r: R) => String(r.represented_by ?? r.id)
    const members = dedupe ? yield* groupMembers([...new Set(rows.filter((r) => r.represented_by != null || (related.get(String(r.id))?.length ?? 0) > 0).map(groupOf))]) : new Map()
    // the row type is kept (its seq still pages the list); the added keys ride along
    return rows.map((r) => {
      const { represented_by: _r, ...rest } = r
      return {
        ...rest,
        related: related.get(String(r.id)) ?? [],
        ...(dedupe ? { also_reported_by: (members.get(groupOf(r)) ?? []).filter((m: { id: string }) => m.id !== r.id) } : {})
      } as unknown as R
    })
  })
