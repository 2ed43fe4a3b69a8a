import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ApiWarning } from "./warnings.js"

/**
 * On an empty result for one jurisdiction and one type (SPEC §2.4): `not_covered` when the
 * pair never held data, `covered_but_empty` when it did but holds nothing matching now.
 */
export const coverageWarning = (
  kind: "feature" | "event",
  code: string,
  members: ReadonlyArray<string>,
  type: string
) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ last_nonzero_at: string | null }>`
      SELECT last_nonzero_at FROM coverage WHERE kind = ${kind} AND type = ${type} AND jurisdiction = ANY(${members})
      ORDER BY last_nonzero_at DESC NULLS LAST LIMIT 1`
  ).pipe(
    Effect.map((rows): ApiWarning => {
      const value = code.trim().toUpperCase()
      if (rows.length === 0) {
        return { code: "not_covered", value, message: `no ${type} data has ever been held for ${value}` }
      }
      const since = rows[0].last_nonzero_at ? ` (last held ${rows[0].last_nonzero_at})` : ""
      return {
        code: "covered_but_empty",
        value,
        message: `${value} is covered for ${type} but nothing matches now${since}`
      }
    })
  )

/** The header twin of a coverage warning. */
export const JURISDICTION_WARNING_HEADER = "X-Jurisdiction-Warning"

/** Header values are Latin-1 without controls; anything else in echoed input is written as \uXXXX. */
export const headerText = (s: string) =>
  s.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).slice(0, 4000)
