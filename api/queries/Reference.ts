import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { cached } from "../cached.js"

export interface JurisdictionRow {
  readonly code: string
  readonly name: string
  readonly official_name: string | null
  readonly country: string
  readonly scope: string
  readonly group_id: string | null
  readonly is_active: boolean
  readonly last_sync_at: string | null
}

export interface GroupRow {
  readonly id: string
  readonly name: string
  readonly description: string | null
  readonly primary_jurisdiction_code: string
  readonly sort_order: number
  readonly members: ReadonlyArray<string>
}

export interface Reference {
  readonly jurisdictions: ReadonlyMap<string, JurisdictionRow>
  readonly groups: ReadonlyArray<GroupRow>
  /** primary code → group members, primary first */
  readonly expansion: ReadonlyMap<string, ReadonlyArray<string>>
  /** upper-case name and official name → code, for did_you_mean ("New York" → NY) */
  readonly names: ReadonlyMap<string, string>
}

export const loadReference = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const jurisdictions = yield* sql<JurisdictionRow>`
    SELECT code, name, official_name, country, scope, group_id, is_active, last_sync_at FROM jurisdictions ORDER BY code`
  const groups = yield* sql<GroupRow>`
    SELECT g.id, g.name, g.description, g.primary_jurisdiction_code, g.sort_order,
           COALESCE(array_agg(j.code ORDER BY j.code <> g.primary_jurisdiction_code, j.member_order, j.code)
                    FILTER (WHERE j.code IS NOT NULL), '{}') AS members
    FROM jurisdiction_groups g LEFT JOIN jurisdictions j ON j.group_id = g.id
    GROUP BY g.id ORDER BY g.sort_order, g.id`
  return {
    jurisdictions: new Map(jurisdictions.map((j) => [j.code, j] as const)),
    groups,
    expansion: new Map(groups.map((g) => [g.primary_jurisdiction_code, g.members] as const)),
    names: new Map(
      jurisdictions.flatMap((j) =>
        [j.name, j.official_name].filter((n): n is string => !!n).map((n) => [n.toUpperCase(), j.code] as const)
      )
    )
  } satisfies Reference
})

/** Reference data changes only with a deploy or a sync: one copy per process (and database), kept a minute. */
export const reference = cached(60_000, loadReference)
