import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** Plan as SPEC §2.9 shows it, plus the numeric limits we chose (docs/api/plans.md). */
const PLAN_COLUMNS = `id, code, name, description, is_active, allow_analytics, allow_geojson, allow_truck_data, allow_webhooks,
  data_delay_sec, data_unit_price::float8 AS data_unit_price, features, is_contact_sales, rate_limit_rpm, daily_request_limit,
  max_limit, max_batch_size, max_jurisdictions, requires_jurisdiction, event_history_days, allow_archived_events,
  allow_inactive_features, saved_route_slots, monthly_routing_quota, daily_routing_cap, trial_days, max_webhooks,
  monthly_price::float8 AS monthly_price, currency`

export const listPlans = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<Record<string, unknown>>`SELECT ${sql.literal(PLAN_COLUMNS)} FROM plans WHERE is_active ORDER BY id`
)

interface AccountRow {
  readonly c_id: number
  readonly c_name: string
  readonly email: string
  readonly company: string | null
  readonly email_verified: boolean
  readonly c_active: boolean
  readonly plan_id: number
  readonly c_created: string
  readonly trial_ends_at: string | null
  readonly subscription_ends_at: string | null
  readonly subscription_status: string
  readonly k_id: number
  readonly k_name: string
  readonly key_prefix: string
  readonly k_active: boolean
  readonly allowed_origins: ReadonlyArray<string>
  readonly rpm: number
  readonly k_created: string
  readonly expires_at: string | null
  readonly last_used_at: string | null
}

/** The calling key's customer, key (never its hash) and plan. */
export const accountOf = (keyId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [r] = yield* sql<AccountRow>`
      SELECT c.id AS c_id, c.name AS c_name, c.email, c.company, c.email_verified, c.is_active AS c_active, c.plan_id,
             c.created_at AS c_created, c.trial_ends_at, c.subscription_ends_at, c.subscription_status,
             k.id AS k_id, k.name AS k_name, k.key_prefix, k.is_active AS k_active, k.allowed_origins,
             COALESCE(k.rate_limit_rpm, p.rate_limit_rpm) AS rpm, k.created_at AS k_created, k.expires_at, k.last_used_at
      FROM api_keys k JOIN customers c ON c.id = k.customer_id JOIN plans p ON p.id = c.plan_id WHERE k.id = ${keyId}`
    const [plan] = yield* sql<
      Record<string, unknown>
    >`SELECT ${sql.literal(PLAN_COLUMNS)} FROM plans WHERE id = ${r.plan_id}`
    return {
      customer: {
        id: r.c_id,
        name: r.c_name,
        email: r.email,
        company: r.company,
        email_verified: r.email_verified,
        is_active: r.c_active,
        plan_id: r.plan_id,
        created_at: r.c_created,
        trial_ends_at: r.trial_ends_at,
        subscription_ends_at: r.subscription_ends_at,
        subscription_status: r.subscription_status
      },
      key: {
        id: r.k_id,
        name: r.k_name,
        key_prefix: r.key_prefix,
        owner_email: r.email,
        is_active: r.k_active,
        allowed_origins: r.allowed_origins,
        rate_limit_rpm: r.rpm,
        created_at: r.k_created,
        expires_at: r.expires_at,
        last_used_at: r.last_used_at
      },
      plan
    }
  })
