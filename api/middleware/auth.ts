import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type Koa from "koa"
import { keyMatches, keyPrefix, looksLikeKey } from "../../shared/domain/ApiKey.js"
import { nowMillis } from "../../shared/time/Now.js"
import type { ApiRuntime } from "../runtime.js"
import { ApiError } from "./errors.js"
import { planGate } from "./planGate.js"

export interface Plan {
  readonly id: number
  readonly code: string
  readonly name: string
  readonly allow_analytics: boolean
  readonly allow_geojson: boolean
  readonly allow_truck_data: boolean
  readonly allow_webhooks: boolean
  readonly data_delay_sec: number
  readonly rate_limit_rpm: number
  readonly daily_request_limit: number | null
  readonly max_limit: number
  readonly max_batch_size: number
  readonly max_jurisdictions: number | null
  readonly requires_jurisdiction: boolean
  readonly allow_archived_events: boolean
  readonly allow_inactive_features: boolean
  /** how far back a request may reach; null = no limit */
  readonly event_history_days: number | null
}

export interface AuthContext {
  readonly keyId: number
  readonly customerId: number
  readonly email: string
  readonly plan: Plan
  readonly rateLimitRpm: number
  readonly allowedOrigins: ReadonlyArray<string>
  readonly expiresAt: string | null
  readonly trialEndsAt: string | null
  readonly subscriptionEndsAt: string | null
  readonly subscriptionStatus: string
  /** PORTAL_URL, for upgrade links in plan-gate bodies */
  readonly portalUrl: string | undefined
}

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

const unauthorized = (error: string) => new ApiError(401, error, { docs_url: "/docs/authentication" })

const lookup = (key: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<KeyRow>`
    SELECT k.id AS key_id, k.key_hash, k.is_active AS key_active, k.allowed_origins, k.rate_limit_rpm AS key_rpm,
           k.expires_at, c.id AS customer_id, c.email, c.is_active AS customer_active, c.trial_ends_at,
           c.subscription_ends_at, c.subscription_status, to_jsonb(p) AS plan
    FROM api_keys k JOIN customers c ON c.id = k.customer_id JOIN plans p ON p.id = c.plan_id
    WHERE k.key_prefix = ${keyPrefix(key)}`)

/** Keys are re-read at most this often; a revoked key stops working within the TTL. */
const CACHE_TTL_MS = 15_000

export const authMiddleware = (rt: ApiRuntime, portalUrl: string | undefined): Koa.Middleware => {
  const cache = new Map<string, { at: number; auth: AuthContext | null }>()
  const touch = new Map<number, number>()
  return async (ctx, next) => {
    const header = ctx.get("x-api-key")
    const q = ctx.query.api_key
    const key = (header || (Array.isArray(q) ? q[0] : q) || "").trim()
    if (key === "") throw unauthorized("API key required: send it in the X-API-Key header")
    if (!looksLikeKey(key)) throw unauthorized("invalid API key")
    const now = await rt.run(nowMillis)
    let hit = cache.get(key)
    if (!hit || now - hit.at > CACHE_TTL_MS) {
      const rows = await rt.run(lookup(key))
      const row = rows.find((r) => keyMatches(key, Buffer.from(r.key_hash)))
      hit = { at: now, auth: row ? toAuth(row, portalUrl) : null }
      if (!row || (row.key_active && row.customer_active)) cache.set(key, hit)
      if (cache.size > 10_000) cache.delete(cache.keys().next().value as string)
      if (row && (!row.key_active || !row.customer_active)) throw unauthorized("API key is disabled")
    }
    if (!hit.auth) throw unauthorized("invalid API key")
    if (hit.auth.expiresAt && Date.parse(hit.auth.expiresAt) <= now) throw unauthorized("API key has expired")
    ctx.state.auth = hit.auth
    // plan state (SPEC §5.5): an ended trial or subscription is a plan gate, not a bad key
    if (hit.auth.trialEndsAt && hit.auth.plan.code === "free" && Date.parse(hit.auth.trialEndsAt) <= now) {
      throw planGate(hit.auth, "trial_expired", "your free trial has ended; choose a plan to continue")
    }
    if (hit.auth.subscriptionEndsAt && hit.auth.plan.code !== "free" && Date.parse(hit.auth.subscriptionEndsAt) <= now) {
      throw planGate(hit.auth, "subscription_expired", "your subscription has ended; renew it to continue")
    }
    // last_used_at is advisory: write it at most once a minute per key, off the request path
    const keyId = hit.auth.keyId
    if ((touch.get(keyId) ?? 0) < now - 60_000) {
      touch.set(keyId, now)
      rt.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE api_keys SET last_used_at = ${new Date(now).toISOString()} WHERE id = ${keyId}`)).catch(() => undefined)
    }
    await next()
  }
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
