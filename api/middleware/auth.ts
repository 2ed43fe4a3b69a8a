import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { generateApiKey, hashApiKey, keyMatches, keyPrefix, looksLikeKey } from "../../shared/domain/ApiKey.js"
import { nowMillis } from "../../shared/time/Now.js"
import { trimOldest } from "../../shared/cache/trimOldest.js"
import { Unauthorized } from "../http/HttpError.js"
import { planGate } from "./planGate.js"
import type { AuthContext, Plan } from "../http/AuthContext.js"

interface KeyRow {
  readonly key_id: number
  readonly key_hash: Buffer
  readonly key_active: boolean
  readonly allowed_origins: ReadonlyArray<string>
  readonly key_rpm: number | null
  readonly expires_at: string | null
  readonly customer_id: number
  readonly email: string
  readonly customer_active: boolean
  readonly trial_ends_at: string | null
  readonly subscription_ends_at: string | null
  readonly subscription_status: string
  readonly plan: Plan
}

const unauthorized = (message: string) => new Unauthorized({ message })

/** A key row with its customer and plan, as the authenticator reads it (a key by prefix, or a portal row). */
const KEY_ROW = `SELECT k.id AS key_id, k.key_hash, k.is_active AS key_active, k.allowed_origins, k.rate_limit_rpm AS key_rpm,
    k.expires_at, c.id AS customer_id, c.email, c.is_active AS customer_active, c.trial_ends_at,
    c.subscription_ends_at, c.subscription_status, to_jsonb(p) AS plan
  FROM api_keys k JOIN customers c ON c.id = k.customer_id JOIN plans p ON p.id = c.plan_id`

const lookup = (key: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<KeyRow>`${sql.literal(KEY_ROW)} WHERE k.key_prefix = ${keyPrefix(key)}`
  )

/** Keys are re-read at most this often; a revoked key stops working within the TTL. */
const CACHE_TTL_MS = 15_000

/** The key of a request: the X-API-Key header, else the `api_key` parameter. */
export const requestKey = (header: string, query: unknown) =>
  (header || (Array.isArray(query) ? query[0] : typeof query === "string" ? query : "") || "").trim()

/** The name the portal's own credential goes by on the usage page. */
export const PORTAL_KEY_NAME = "Portal pages (map, route planner, API reference)"

const portalRow = (customerId: number) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<KeyRow>`${sql.literal(KEY_ROW)} WHERE k.customer_id = ${customerId} AND k.portal`
  )

/** The account's portal credential, made on first use: its key is thrown away, so the row answers to a session only. */
const portalLookup = (customerId: number) =>
  Effect.gen(function* () {
    const found = yield* portalRow(customerId)
    if (found.length > 0) return found
    const sql = yield* SqlClient.SqlClient
    const key = generateApiKey()
    yield* sql`
      INSERT INTO api_keys (customer_id, name, key_prefix, key_hash, portal)
      VALUES (${customerId}, ${PORTAL_KEY_NAME}, ${keyPrefix(key)}, ${hashApiKey(key)}, true)
      ON CONFLICT (customer_id) WHERE portal DO NOTHING`
    return yield* portalRow(customerId)
  })

/**
 * Checks a key and the plan state behind it (SPEC §5.5): 401 for a missing, unknown, disabled
 * or expired key; an ended trial or subscription is a plan gate, not a bad key. Keys are cached
 * per process for 15 s; `last_used_at` is written at most once a minute per key. `session`
 * admits a logged-in portal browser as its customer, under the account's portal credential.
 */
export const makeAuthenticator = (portalUrl: () => string | undefined) => {
  const cache = new Map<string, { at: number; auth: AuthContext | null }>()
  const touch = new Map<number, number>()
  const admit = (auth: AuthContext, now: number) =>
    Effect.gen(function* () {
      if (auth.expiresAt && Date.parse(auth.expiresAt) <= now) return yield* unauthorized("API key has expired")
      if (auth.trialEndsAt && auth.plan.code === "free" && Date.parse(auth.trialEndsAt) <= now) {
        return yield* planGate(auth, "trial_expired", "your free trial has ended; choose a plan to continue")
      }
      if (auth.subscriptionEndsAt && auth.plan.code !== "free" && Date.parse(auth.subscriptionEndsAt) <= now) {
        return yield* planGate(auth, "subscription_expired", "your subscription has ended; renew it to continue")
      }
      if ((touch.get(auth.keyId) ?? 0) < now - 60_000) {
        touch.set(auth.keyId, now)
        // advisory: never fails or delays the request
        yield* Effect.forkDaemon(
          Effect.ignore(
            Effect.flatMap(
              SqlClient.SqlClient,
              (sql) => sql`UPDATE api_keys SET last_used_at = ${new Date(now).toISOString()} WHERE id = ${auth.keyId}`
            )
          )
        )
      }
      return auth
    })
  const key = (key: string) =>
    Effect.gen(function* () {
      if (key === "") return yield* unauthorized("API key required: send it in the X-API-Key header")
      if (!looksLikeKey(key)) return yield* unauthorized("invalid API key")
      const now = yield* nowMillis
      let hit = cache.get(key)
      if (!hit || now - hit.at > CACHE_TTL_MS) {
        const rows = yield* lookup(key)
        const row = rows.find((r) => keyMatches(key, Buffer.from(r.key_hash)))
        hit = { at: now, auth: row ? toAuth(row, portalUrl()) : null }
        if (!row || (row.key_active && row.customer_active)) cache.set(key, hit)
        trimOldest(cache, 10_000)
        if (row && (!row.key_active || !row.customer_active)) return yield* unauthorized("API key is disabled")
      }
      const auth = hit.auth
      if (!auth) return yield* unauthorized("invalid API key")
      return yield* admit(auth, now)
    })
  const session = (customerId: number) =>
    Effect.gen(function* () {
      const now = yield* nowMillis
      const cached = `portal:${customerId}`
      let hit = cache.get(cached)
      if (!hit || now - hit.at > CACHE_TTL_MS) {
        const [row] = yield* portalLookup(customerId)
        hit = { at: now, auth: row && row.key_active && row.customer_active ? toAuth(row, portalUrl()) : null }
        cache.set(cached, hit)
        trimOldest(cache, 10_000)
      }
      if (!hit.auth) return yield* unauthorized("this account is disabled")
      return yield* admit(hit.auth, now)
    })
  return { key, session }
}

const toAuth = (r: KeyRow, portalUrl: string | undefined): AuthContext => ({
  keyId: r.key_id,
  customerId: r.customer_id,
  email: r.email,
  plan: r.plan,
  rateLimitRpm: r.key_rpm ?? r.plan.rate_limit_rpm,
  allowedOrigins: r.allowed_origins,
  expiresAt: r.expires_at,
  trialEndsAt: r.trial_ends_at,
  subscriptionEndsAt: r.subscription_ends_at,
  subscriptionStatus: r.subscription_status,
  portalUrl
})
