import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Page } from "./EventsQuery.js"

export interface FeatureHistoryFilters {
  readonly featureIds?: ReadonlyArray<string> | undefined
  readonly types?: ReadonlyArray<string> | undefined
  readonly jurisdictions?: ReadonlyArray<string> | undefined
  readonly changeTypes?: ReadonlyArray<string> | undefined
  readonly since?: string | undefined
  readonly until?: string | undefined
  /** the plan's history window */
  readonly earliest?: string | undefined
}

/**
 * Feature lifecycle rows (created, deactivated, reactivated; SPEC §3), oldest first by history
 * row id like /analytics/changes, each with its feature's type, jurisdiction and name.
 */
export const listFeatureHistory = (f: FeatureHistoryFilters, page: Page) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const w = sql.and([
      f.featureIds ? sql`h.feature_id = ANY(${f.featureIds})` : sql`TRUE`,
      f.types ? sql`ft.feature_type = ANY(${f.types})` : sql`TRUE`,
      f.jurisdictions ? sql`ft.jurisdiction = ANY(${f.jurisdictions})` : sql`TRUE`,
      f.changeTypes ? sql`h.change_type = ANY(${f.changeTypes})` : sql`TRUE`,
      f.since ? sql`h.changed_at >= ${f.since}::timestamptz` : sql`TRUE`,
      f.until ? sql`h.changed_at < ${f.until}::timestamptz` : sql`TRUE`,
      f.earliest ? sql`h.changed_at >= ${f.earliest}::timestamptz` : sql`TRUE`
    ])
    const keyset = page.afterSeq !== undefined ? sql`AND h.id > ${page.afterSeq}` : sql``
    const [rows, [{ total }]] = yield* Effect.all(
      [
        sql<Record<string, unknown> & { seq: number }>`
        SELECT h.id, h.feature_id, ft.feature_type, ft.jurisdiction, ft.name AS feature_name, h.change_type,
               h.old_value, h.new_value, h.changed_at, h.id AS seq
        FROM feature_history h JOIN features ft ON ft.id = h.feature_id
        WHERE ${w} ${keyset}
        ORDER BY h.id LIMIT ${page.limit + 1} OFFSET ${page.afterSeq !== undefined ? 0 : page.offset}`,
        sql<{
          total: number
        }>`SELECT count(*)::int AS total FROM feature_history h JOIN features ft ON ft.id = h.feature_id WHERE ${w}`
      ],
      { concurrency: 2 }
    )
    return { rows: rows.slice(0, page.limit), total, hasMore: rows.length > page.limit }
  })
