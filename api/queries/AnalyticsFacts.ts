import type { SqlClient } from "@effect/sql"

/** What every event aggregate filters on; the window applies to when we first reported the event. */
export interface FactFilters {
  readonly since: string
  readonly until: string
  readonly jurisdictions?: ReadonlyArray<string> | undefined
  readonly types?: ReadonlyArray<string> | undefined
  readonly severities?: ReadonlyArray<string> | undefined
}

/** The WHERE of an aggregate over `analytics_events a` (rows without content have no created_at and drop out). */
export const factWhere = (sql: SqlClient.SqlClient, f: FactFilters) =>
  sql.and([
    sql`a.created_at >= ${f.since}::timestamptz`,
    sql`a.created_at < ${f.until}::timestamptz`,
    f.jurisdictions ? sql`a.jurisdiction = ANY(${f.jurisdictions})` : sql`TRUE`,
    f.types ? sql`a.type = ANY(${f.types})` : sql`TRUE`,
    f.severities ? sql`a.severity = ANY(${f.severities})` : sql`TRUE`
  ])

/**
 * Which archives are clearances: an `observed` archive (the event left its feed) is; a
 * `stale_sweep` archive (we stopped hearing about it) only when the caller asks; a negative
 * duration (archived before its scheduled start) never is.
 */
export const clearedWhere = (sql: SqlClient.SqlClient, includeStale: boolean) =>
  sql.and([
    sql`a.clearance_minutes >= 0`,
    includeStale ? sql`a.archive_reason IN ('observed', 'stale_sweep')` : sql`a.archive_reason = 'observed'`
  ])
