import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Calls taken from one pack. */
export interface PackTake {
  readonly id: number
  readonly calls: number
}

/**
 * Takes `cost` calls from the customer's top-up packs, oldest pack first (SPEC §8: first in,
 * first out), in one transaction with the packs locked, so two API processes cannot spend the
 * same call; answers what was taken and the calls left after it. Null when the packs together
 * hold fewer than `cost`: nothing is taken then.
 */
export const takeFromPacks = (customerId: number, cost: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const open = yield* sql<{ id: number; left: number }>`
        SELECT id, calls - used AS left FROM routing_packs
        WHERE customer_id = ${customerId} AND used < calls ORDER BY granted_at, id FOR UPDATE`
        const held = open.reduce((n, p) => n + p.left, 0)
        if (held < cost) return null
        const takes: Array<PackTake> = []
        let due = cost
        for (const p of open) {
          if (due === 0) break
          const n = Math.min(due, p.left)
          takes.push({ id: p.id, calls: n })
          due -= n
        }
        yield* sql`
        UPDATE routing_packs r SET used = r.used + x.calls
        FROM jsonb_to_recordset(${JSON.stringify(takes)}::jsonb) AS x(id bigint, calls int) WHERE r.id = x.id`
        return { takes, left: held - cost }
      })
    )
  })

/** Returns calls to the packs they came from (the route could not be made). */
export const returnToPacks = (takes: ReadonlyArray<PackTake>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`
    UPDATE routing_packs r SET used = greatest(0, r.used - x.calls)
    FROM jsonb_to_recordset(${JSON.stringify(takes)}::jsonb) AS x(id bigint, calls int) WHERE r.id = x.id`
  )
