import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Page } from "./EventsQuery.js"

export interface ChangeFilters {
  readonly jurisdictions?: ReadonlyArray<string>
  readonly types?: ReadonlyArray<string>
  readonly changeTypes?: ReadonlyArray<string>
  readonly since?: string
  readonly until?: string
  /** the plan's history window: rows changed before this instant are not shown */
  readonly earliest?: string
}

/**
 * Lifecycle changes across events (SPEC §4.5 /analytics/changes), oldest first by history row id
 * (insertion order, so offset and cursor pages agree while rows are added), with each change's
 * event jurisdiction and title.
 */
export const listChanges = (f: ChangeFilters, page: Page) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const w = sql.and([
      f.jurisdictions ? sql`e.jurisdiction = ANY(${f.jurisdictions})` : sql`TRUE`,
      f.types ? sql`e.type = ANY(${f.types})` : sql`TRUE`,
      f.changeTypes ? sql`h.change_type = ANY(${f.changeTypes})` : sql`TRUE`,
      f.since ? sql`h.changed_at >= ${f.since}::timestamptz` : sql`TRUE`,
      f.until ? sql`h.changed_at < ${f.until}::timestamptz` : sql`TRUE`,
      f.earliest ? sql`h.changed_at >= ${f.earliest}::timestamptz` : sql`TRUE`
    ])
    const keyset = page.afterSeq !== undefined ? sql`AND h.id > ${page.afterSeq}` : sql``
    // ids follow time closely but not exactly: start the id-ordered scan at the window's first id.
    // The OFFSET 0 fence makes min(id) read the window off the time index; left to itself the
    // planner walks the primary key from the oldest row. A window that starts before the oldest
    // row needs no bound (and skips that scan).
    const from = [f.since, f.earliest]
      .filter((x): x is string => x !== undefined)
      .sort()
      .at(-1)
    const start = from
      ? sql`AND h.id >= (SELECT CASE WHEN ${from}::timestamptz <= (SELECT min(changed_at) FROM event_history) THEN 0
          ELSE (SELECT min(id) FROM (SELECT id FROM event_history WHERE changed_at >= ${from}::timestamptz OFFSET 0) w) END)`
      : sql``
    const offset = page.afterSeq !== undefined ? 0 : page.offset
    const byEvent = f.jurisdictions !== undefined || f.types !== undefined
    const columns = sql`h.id, h.event_id, h.change_type, h.old_value, h.new_value, h.changed_at, e.jurisdiction, e.title AS event_title, h.id AS seq`
    // Without an event filter the page's history rows are picked first and only they are joined,
    // and the count reads the history index alone. Both differ from the join only for an archive
    // whose event content is not materialized yet (a moment, at most).
    const [rows, [{ total }]] = yield* Effect.all(
      [
        byEvent
          ? sql<Record<string, unknown> & { seq: number }>`
            SELECT ${columns} FROM event_history h JOIN events e ON e.id = h.event_id
            WHERE ${w} ${keyset} ${start} ORDER BY h.id LIMIT ${page.limit + 1} OFFSET ${offset}`
          : sql<Record<string, unknown> & { seq: number }>`
            SELECT ${columns}
            FROM (SELECT * FROM event_history h WHERE ${w} ${keyset} ${start} ORDER BY h.id LIMIT ${page.limit + 1} OFFSET ${offset}) h
            JOIN events e ON e.id = h.event_id ORDER BY h.id`,
        byEvent
          ? sql<{
              total: number
            }>`SELECT count(*)::int AS total FROM event_history h JOIN events e ON e.id = h.event_id WHERE ${w}`
          : sql<{ total: number }>`SELECT count(*)::int AS total FROM event_history h WHERE ${w}`
      ],
      { concurrency: 2 }
    )
    return { rows: rows.slice(0, page.limit), total, hasMore: rows.length > page.limit }
  })
