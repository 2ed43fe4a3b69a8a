import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { nowMillis } from "../../shared/time/Now.js"
import { Unauthorized } from "../http/HttpError.js"
import type { Plan } from "../http/AuthContext.js"
import { BrowserRequest } from "./BrowserRequest.js"
import type { PortalSessionShape } from "./PortalSession.js"

export const SESSION_COOKIE = "rds_session"
/** A session lasts this long from log-in; log-out, a password reset or an operator ends it sooner. */
export const SESSION_DAYS = 7

const hash = (token: string) => createHash("sha256").update(token, "utf8").digest()

/** Starts a session for the customer and sets its cookie (HttpOnly, SameSite=Lax). */
export const startSession = (customerId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const browser = yield* BrowserRequest
    const now = yield* nowMillis
    const token = randomBytes(32).toString("base64url")
    yield* sql`
      INSERT INTO portal_sessions (id_hash, customer_id, created_at, expires_at, user_agent, ip)
      VALUES (${hash(token)}, ${customerId}, ${new Date(now).toISOString()}, ${new Date(now + SESSION_DAYS * 86_400_000).toISOString()},
              ${browser.userAgent.slice(0, 300)}, ${browser.ip})`
    browser.setCookie(SESSION_COOKIE, token, { sameSite: "lax", maxAgeS: SESSION_DAYS * 86_400 })
  })

interface SessionRow {
  readonly customer_id: number
  readonly email: string
  readonly email_verified: boolean
  readonly plan: Plan
}

/** The request's live session, or 401: a revoked, expired or unknown cookie is no session. */
export const currentSession = Effect.gen(function* () {
  const browser = yield* BrowserRequest
  const token = browser.getCookie(SESSION_COOKIE)
  const session = token ? yield* lookup(token) : null
  if (!session) return yield* new Unauthorized({ message: "log in to the portal to continue" })
  return session
})

/** The session a cookie names, or null. */
export const lookup = (token: string) =>
  Effect.gen(function* () {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null
    const sql = yield* SqlClient.SqlClient
    const now = new Date(yield* nowMillis).toISOString()
    const idHash = hash(token)
    const [row] = yield* sql<SessionRow>`
      SELECT s.customer_id, c.email, c.email_verified, to_jsonb(p) AS plan
      FROM portal_sessions s JOIN customers c ON c.id = s.customer_id JOIN plans p ON p.id = c.plan_id
      WHERE s.id_hash = ${idHash} AND s.revoked_at IS NULL AND s.expires_at > ${now} AND c.is_active`
    return row
      ? ({
          idHash,
          customerId: row.customer_id,
          email: row.email,
          emailVerified: row.email_verified,
          plan: row.plan
        } satisfies PortalSessionShape)
      : null
  })

/** Ends this browser's session: the row is revoked (the cookie is worthless from now on) and the cookie cleared. */
export const endSession = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const browser = yield* BrowserRequest
  const token = browser.getCookie(SESSION_COOKIE)
  browser.clearCookie(SESSION_COOKIE)
  if (!token) return
  yield* sql`UPDATE portal_sessions SET revoked_at = ${new Date(yield* nowMillis).toISOString()} WHERE id_hash = ${hash(token)} AND revoked_at IS NULL`
})

/** Ends every session of a customer (after a password reset). */
export const endAllSessions = (customerId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE portal_sessions SET revoked_at = ${new Date(yield* nowMillis).toISOString()} WHERE customer_id = ${customerId} AND revoked_at IS NULL`
  })
