import { SqlClient } from "@effect/sql"
import { Data, Effect } from "effect"
import { generateApiKey, hashApiKey, keyPrefix } from "../../shared/domain/ApiKey.js"
import { nowMillis } from "../../shared/time/Now.js"

export class AdminError extends Data.TaggedError("AdminError")<{ readonly message: string }> {}

export interface CreateKeyInput {
  readonly plan: string
  readonly email: string
  readonly name?: string
  readonly rateLimitRpm?: number
  readonly allowedOrigins?: ReadonlyArray<string>
  readonly expiresAt?: string
}

/** Creates (or reuses) the customer for the email, puts it on the plan, and issues a key. */
export const createKey = (input: CreateKeyInput) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(input.email))
      return yield* new AdminError({ message: `not an email address: ${input.email}` })
    const plans = yield* sql<{
      id: number
      trial_days: number | null
    }>`SELECT id, trial_days FROM plans WHERE code = ${input.plan}`
    if (plans.length === 0)
      return yield* new AdminError({ message: `no plan "${input.plan}" (free, starter, pro, enterprise)` })
    const plan = plans[0]
    const key = generateApiKey()
    const now = yield* nowMillis
    const trialEnds = plan.trial_days ? new Date(now + plan.trial_days * 86_400_000).toISOString() : null
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const [customer] = yield* sql<{ id: number }>`
          INSERT INTO customers (email, name, plan_id, trial_ends_at)
          VALUES (${input.email}, ${input.email.split("@")[0]}, ${plan.id},
                  ${trialEnds}::timestamptz)
          ON CONFLICT (email) DO UPDATE SET plan_id = excluded.plan_id,
            trial_ends_at = COALESCE(customers.trial_ends_at, excluded.trial_ends_at)
          RETURNING id`
        const [row] = yield* sql<{ id: number }>`
          INSERT INTO api_keys (customer_id, name, key_prefix, key_hash, rate_limit_rpm, allowed_origins, expires_at)
          VALUES (${customer.id}, ${input.name ?? "default"}, ${keyPrefix(key)}, ${hashApiKey(key)},
                  ${input.rateLimitRpm ?? null}, ${input.allowedOrigins ?? []}, ${input.expiresAt ?? null})
          RETURNING id`
        return { id: row.id, customerId: customer.id, key }
      })
    )
  })
