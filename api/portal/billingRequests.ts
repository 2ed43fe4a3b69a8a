import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { PACK_CALLS } from "../../shared/portal/forms.js"
import { nowMillis } from "../../shared/time/Now.js"
import { BadRequest } from "../http/HttpError.js"

/**
 * Requests an operator applies with the admin CLI (`billing apply`): there is no payment
 * processor here, so the portal records what the customer asked for and says so.
 */
export const listBillingRequests = (customerId: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<Record<string, unknown>>`
    SELECT id, kind, plan_code, pack_calls, status, created_at, decided_at, monthly_price::float8 AS monthly_price, currency
    FROM billing_requests
    WHERE customer_id = ${customerId} ORDER BY created_at DESC, id DESC LIMIT 50`
  )

export const requestBilling = (
  customerId: number,
  input: { readonly kind: "upgrade"; readonly plan: string } | { readonly kind: "routing_pack" }
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = yield* nowMillis
    const plan = input.kind === "upgrade" ? input.plan : null
    const [current] = yield* sql<{
      code: string
    }>`SELECT p.code FROM customers c JOIN plans p ON p.id = c.plan_id WHERE c.id = ${customerId}`
    if (plan !== null && plan === current.code)
      return yield* new BadRequest({ message: `you are on the ${plan} plan already` })
    const pending = yield* sql`
      SELECT 1 FROM billing_requests WHERE customer_id = ${customerId} AND status = 'pending' AND kind = ${input.kind}
        AND plan_code IS NOT DISTINCT FROM ${plan}`
    if (pending.length > 0)
      return yield* new BadRequest({ message: "the same request is waiting for an operator already" })
    // an upgrade is asked for at the plan's price of the moment, which the request keeps
    const [row] = yield* sql<Record<string, unknown>>`
      INSERT INTO billing_requests (customer_id, kind, plan_code, pack_calls, created_at, monthly_price, currency)
      SELECT ${customerId}, ${input.kind}, ${plan}, ${input.kind === "routing_pack" ? PACK_CALLS : null}, ${new Date(now).toISOString()},
             (SELECT monthly_price FROM plans WHERE code = ${plan}), (SELECT currency FROM plans WHERE code = ${plan})
      RETURNING id, kind, plan_code, pack_calls, status, created_at, decided_at, monthly_price::float8 AS monthly_price, currency`
    return row
  })
