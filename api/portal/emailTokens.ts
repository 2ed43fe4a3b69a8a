import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { nowMillis } from "../../shared/time/Now.js"

export type TokenPurpose = "verify" | "reset"

/** How long a link in a mail works. */
export const TOKEN_TTL_MS: Readonly<Record<TokenPurpose, number>> = { verify: 24 * 3_600_000, reset: 3_600_000 }

const hash = (token: string) => createHash("sha256").update(token, "utf8").digest()

/**
 * A new single-use token for the customer; only its hash is kept. Earlier unused ones of the same purpose stop
 * working.
 */
export const issueToken = (customerId: number, purpose: TokenPurpose) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = yield* nowMillis
    const token = randomBytes(32).toString("base64url")
    yield* sql`UPDATE email_tokens SET used_at = ${new Date(now).toISOString()} WHERE customer_id = ${customerId} AND purpose = ${purpose} AND used_at IS NULL`
    yield* sql`
      INSERT INTO email_tokens (token_hash, customer_id, purpose, created_at, expires_at)
      VALUES (${hash(token)}, ${customerId}, ${purpose}, ${new Date(now).toISOString()}, ${new Date(now + TOKEN_TTL_MS[purpose]).toISOString()})`
    return token
  })

/**
 * Uses a token once: the customer it was for, or null when it is unknown, used or expired.
 * The check and the marking are one statement, so two clicks cannot both succeed.
 */
export const consumeToken = (token: string, purpose: TokenPurpose) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = new Date(yield* nowMillis).toISOString()
    const [row] = yield* sql<{ customer_id: number }>`
      UPDATE email_tokens SET used_at = ${now}
      WHERE token_hash = ${hash(token)} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
      RETURNING customer_id`
    return row?.customer_id ?? null
  })
