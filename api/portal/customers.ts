import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** SPEC §2.9 Customer as the portal shows it. */
export interface CustomerView {
  readonly id: number
  readonly name: string
  readonly email: string
  readonly company: string | null
  readonly email_verified: boolean
  readonly is_active: boolean
  readonly plan_id: number
  readonly plan_code: string
  readonly plan_name: string
  readonly created_at: string
  readonly trial_ends_at: string | null
  readonly subscription_ends_at: string | null
  readonly subscription_status: string
}

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
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ id: number; name: string; email: string; password_hash: string | null; is_active: boolean }>`
      SELECT id, name, email, password_hash, is_active FROM customers WHERE lower(email) = lower(${email})`).pipe(Effect.map((r) => r[0] ?? null))
