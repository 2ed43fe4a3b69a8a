import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { nowMillis } from "../../shared/time/Now.js"
import { AdminError } from "./keys.js"

/**
 * What an operator does with the portal's billing requests (there is no payment processor):
 * list them, apply one (a plan change, or a routing top-up pack added to the account), or
 * decline one. Applying is one transaction, so a request is applied once.
 */
export const listBilling = (status: string | undefined) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<Record<string, unknown>>`
    SELECT r.id, c.email, r.kind, r.plan_code, r.pack_calls, r.status, r.created_at, r.decided_at
    FROM billing_requests r JOIN customers c ON c.id = r.customer_id
    WHERE ${status ? sql`r.status = ${status}` : sql`true`} ORDER BY r.created_at, r.id`
  )

export const decideBilling = (id: number, decision: "apply" | "decline") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = new Date(yield* nowMillis).toISOString()
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const [r] = yield* sql<{
          id: number
          customer_id: number
          kind: string
          plan_code: string | null
          pack_calls: number | null
          status: string
        }>`
        SELECT id, customer_id, kind, plan_code, pack_calls, status FROM billing_requests WHERE id = ${id} FOR UPDATE`
        if (!r) return yield* new AdminError({ message: `no billing request ${id}` })
        if (r.status !== "pending")
          return yield* new AdminError({ message: `billing request ${id} is ${r.status} already` })
        if (decision === "apply" && r.kind === "upgrade") {
          const rows = yield* sql`
          UPDATE customers SET plan_id = p.id, subscription_status = CASE WHEN p.code = 'free' THEN customers.subscription_status ELSE 'active' END
          FROM plans p WHERE p.code = ${r.plan_code} AND customers.id = ${r.customer_id} RETURNING customers.id`
          if (rows.length === 0) return yield* new AdminError({ message: `no plan "${r.plan_code}"` })
        }
        if (decision === "apply" && r.kind === "routing_pack") {
          yield* sql`INSERT INTO routing_packs (customer_id, calls, granted_at, request_id) VALUES (${r.customer_id}, ${r.pack_calls}, ${now}, ${r.id})`
        }
        const [done] = yield* sql<Record<string, unknown>>`
        UPDATE billing_requests SET status = ${decision === "apply" ? "applied" : "declined"}, decided_at = ${now} WHERE id = ${id}
        RETURNING id, kind, plan_code, pack_calls, status, decided_at`
        return done
      })
    )
  })
