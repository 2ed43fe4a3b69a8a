import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { generateApiKey, hashApiKey, keyPrefix } from "../../shared/domain/ApiKey.js"
import { type KeyForm, MAX_KEYS } from "../../shared/portal/forms.js"
import { nowMillis } from "../../shared/time/Now.js"
import { BadRequest, NotFound } from "../http/HttpError.js"

/** SPEC §2.9 APIKey; `rate_limit_rpm` is the one in force (the key's own, else the plan's). */
const KEY_COLUMNS = `k.id, k.name, k.key_prefix, c.email AS owner_email, k.is_active, k.allowed_origins,
  COALESCE(k.rate_limit_rpm, p.rate_limit_rpm) AS rate_limit_rpm, k.created_at, k.expires_at, k.last_used_at`

export const listKeys = (customerId: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<Record<string, unknown>>`
    SELECT ${sql.literal(KEY_COLUMNS)} FROM api_keys k JOIN customers c ON c.id = k.customer_id JOIN plans p ON p.id = c.plan_id
    WHERE k.customer_id = ${customerId} AND NOT k.portal ORDER BY k.is_active DESC, k.created_at DESC, k.id DESC`
  )

/** A new key, stored as its SHA-256 like the CLI's; the answer is the only place the key appears. */
export const issueKey = (customerId: number, form: KeyForm) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = yield* nowMillis
    if (form.expires_at && Date.parse(form.expires_at) <= now)
      return yield* new BadRequest({ message: "expires_at must be in the future" })
    const [{ n }] = yield* sql<{
      n: number
    }>`SELECT count(*)::int AS n FROM api_keys WHERE customer_id = ${customerId} AND is_active AND NOT portal`
    if (n >= MAX_KEYS)
      return yield* new BadRequest({
        message: `you have ${MAX_KEYS} active keys, the most an account may hold: revoke one first`
      })
    const key = generateApiKey()
    const [row] = yield* sql<{ id: number }>`
      INSERT INTO api_keys (customer_id, name, key_prefix, key_hash, allowed_origins, expires_at, created_at)
      VALUES (${customerId}, ${form.name}, ${keyPrefix(key)}, ${hashApiKey(key)}, ${[...new Set(form.allowed_origins ?? [])]},
              ${form.expires_at ? new Date(form.expires_at).toISOString() : null}, ${new Date(now).toISOString()})
      RETURNING id`
    const [view] = yield* sql<Record<string, unknown>>`
      SELECT ${sql.literal(KEY_COLUMNS)} FROM api_keys k JOIN customers c ON c.id = k.customer_id JOIN plans p ON p.id = c.plan_id WHERE k.id = ${row.id}`
    return { ...view, key }
  })

/** Revokes a key of the customer's; the API refuses it within its 15-second key cache. */
export const revokeKey = (customerId: number, id: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows =
      yield* sql`UPDATE api_keys SET is_active = false WHERE id = ${id} AND customer_id = ${customerId} AND NOT portal RETURNING id`
    if (rows.length === 0) return yield* new NotFound({ message: `no key ${id} on your account` })
  })
