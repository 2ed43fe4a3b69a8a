import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Per-row advisory locks, taken in id order so two consumers never deadlock: concurrent
 * batches touching the same event or feature run one after the other. `space` keeps the
 * event and feature id spaces apart.
 */
export const lockIds = (space: number, ids: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`SELECT pg_advisory_xact_lock(hashtextextended(id, ${space})) FROM (SELECT id FROM unnest(${ids}::text[]) AS id ORDER BY id) s`
  )

export interface HistoryRow {
  readonly change_id: string
  readonly subject_id: string
  readonly change_type: string
  readonly old_value: string | null
  readonly new_value: string | null
  readonly changed_at: string
}

const TABLES = {
  event_history: "event_id",
  feature_history: "feature_id"
} as const

/** History rows, once each: unique on (change_id, change_type), so a redelivery adds nothing. */
export const insertHistory = (table: keyof typeof TABLES, rows: ReadonlyArray<HistoryRow>) =>
  rows.length === 0
    ? Effect.void
    : Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
        INSERT INTO ${sql.literal(table)} (change_id, ${sql.literal(TABLES[table])}, change_type, old_value, new_value, changed_at)
        SELECT change_id, subject_id, change_type, old_value, new_value, changed_at
        FROM unnest(${rows.map((r) => r.change_id)}::text[], ${rows.map((r) => r.subject_id)}::text[], ${rows.map((r) => r.change_type)}::text[],
          ${rows.map((r) => r.old_value)}::text[], ${rows.map((r) => r.new_value)}::text[], ${rows.map((r) => r.changed_at)}::timestamptz[])
          AS x(change_id, subject_id, change_type, old_value, new_value, changed_at)
        ORDER BY changed_at
        ON CONFLICT (change_id, change_type) DO NOTHING`).pipe(Effect.asVoid)

const SUBJECTS = { event_history: "events", feature_history: "features" } as const

/**
 * A row created before this batch keeps the earliest `created` time its history records, whatever
 * order the messages came in (a row inserted by this batch already has it).
 */
export const keepEarliestCreation = (table: keyof typeof TABLES, ids: ReadonlyArray<string>) =>
  ids.length === 0
    ? Effect.void
    : Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
        UPDATE ${sql.literal(SUBJECTS[table])} AS t SET created_at = h.first
        FROM (SELECT ${sql.literal(TABLES[table])} AS id, min(changed_at) AS first FROM ${sql.literal(table)}
              WHERE change_type = 'created' AND ${sql.literal(TABLES[table])} = ANY(${ids}) GROUP BY 1) h
        WHERE t.id = h.id AND t.created_at > h.first`).pipe(Effect.asVoid)
