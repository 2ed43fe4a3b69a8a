import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { arrayLiteral } from "../../../shared/db/arrayLiteral.js"

/**
 * Per-row advisory locks, taken in id order so two consumers never deadlock: concurrent
 * batches touching the same event or feature run one after the other. `space` keeps the
 * event and feature id spaces apart. The ids go as one literal (arrayLiteral), not as a
 * driver array, which node-postgres builds by appending to a string element by element.
 */
export const lockIds = (space: number, ids: ReadonlyArray<string>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql`SELECT pg_advisory_xact_lock(hashtextextended(id, ${space})) FROM (SELECT id FROM unnest(${arrayLiteral(ids)}::text[]) AS id ORDER BY id) s`
  )

/** History rows of a batch, one array per column (row i is element i of each). */
export interface HistoryColumns {
  readonly change_id: Array<string>
  readonly subject_id: Array<string>
  readonly change_type: Array<string>
  readonly old_value: Array<string | null>
  readonly new_value: Array<string | null>
  readonly changed_at: Array<string>
}

/** One history row per changed field of each change. */
export const historyColumns = <
  C extends {
    readonly change_id: string
    readonly at: string
    readonly fields: ReadonlyArray<{
      readonly change_type: string
      readonly old_value: string | null
      readonly new_value: string | null
    }>
  }
>(
  changes: ReadonlyArray<C>,
  subjectOf: (c: C) => string
): HistoryColumns => {
  const h: HistoryColumns = {
    change_id: [],
    subject_id: [],
    change_type: [],
    old_value: [],
    new_value: [],
    changed_at: []
  }
  for (const c of changes) {
    const subject = subjectOf(c)
    for (const f of c.fields) {
      h.change_id.push(c.change_id)
      h.subject_id.push(subject)
      h.change_type.push(f.change_type)
      h.old_value.push(f.old_value)
      h.new_value.push(f.new_value)
      h.changed_at.push(c.at)
    }
  }
  return h
}

const TABLES = {
  event_history: "event_id",
  feature_history: "feature_id"
} as const

/** History rows, once each: unique on (change_id, change_type), so a redelivery adds nothing. */
export const insertHistory = (table: keyof typeof TABLES, h: HistoryColumns) =>
  h.change_id.length === 0
    ? Effect.void
    : Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`
        INSERT INTO ${sql.literal(table)} (change_id, ${sql.literal(TABLES[table])}, change_type, old_value, new_value, changed_at)
        SELECT change_id, subject_id, change_type, old_value, new_value, changed_at
        FROM unnest(${arrayLiteral(h.change_id)}::text[], ${arrayLiteral(h.subject_id)}::text[], ${arrayLiteral(h.change_type)}::text[],
          ${arrayLiteral(h.old_value)}::text[], ${arrayLiteral(h.new_value)}::text[], ${arrayLiteral(h.changed_at)}::timestamptz[])
          AS x(change_id, subject_id, change_type, old_value, new_value, changed_at)
        ORDER BY changed_at
        ON CONFLICT (change_id, change_type) DO NOTHING`
      ).pipe(Effect.asVoid)

const SUBJECTS = { event_history: "events", feature_history: "features" } as const

/**
 * A row created before this batch keeps the earliest `created` time its history records, whatever
 * order the messages came in (a row inserted by this batch already has it).
 */
export const keepEarliestCreation = (table: keyof typeof TABLES, ids: ReadonlyArray<string>) =>
  ids.length === 0
    ? Effect.void
    : Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`
        UPDATE ${sql.literal(SUBJECTS[table])} AS t SET created_at = h.first
        FROM (SELECT ${sql.literal(TABLES[table])} AS id, min(changed_at) AS first FROM ${sql.literal(table)}
              WHERE change_type = 'created' AND ${sql.literal(TABLES[table])} = ANY(${arrayLiteral(ids)}::text[]) GROUP BY 1) h
        WHERE t.id = h.id AND t.created_at > h.first`
      ).pipe(Effect.asVoid)
