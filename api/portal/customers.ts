import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { CustomerView } from "../../shared/portal/views.js"

export const customerView = (customerId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [c] = yield* sql<CustomerView>`
      SELECT c.id, c.name, c.email, c.company, c.email_verified, c.is_active, c.plan_id, p.code AS plan_code, p.name AS plan_name,
             c.created_at, c.trial_ends_at, c.subscription_ends_at, c.subscription_status
      FROM customers c JOIN plans p ON p.id = c.plan_id WHERE c.id = ${customerId}`
    return c
  })

export const customerByEmail = (email: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ id: number; name: string; email: string; password_hash: string | null; is_active: boolean }>`
      SELECT id, name, email, password_hash, is_active FROM customers WHERE lower(email) = lower(${email})`
  ).pipe(Effect.map((r) => r[0] ?? null))
