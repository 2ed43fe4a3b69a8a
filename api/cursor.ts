import { Effect, Redacted } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import { AppConfig } from "../shared/config/AppConfig.js"
import { BadRequest } from "./http/HttpError.js"

/**
 * Opaque keyset cursor: base64url(JSON) + "." + HMAC. Bound to the query's filters, so a
 * cursor replayed against other filters, or edited, is refused with 400.
 */
export interface CursorState {
  readonly k: number
  readonly f: string
}

const sign = (secret: string, payload: string) =>
  createHmac("sha256", secret).update(payload).digest("base64url").slice(0, 22)

export const encodeCursor = (secret: string, state: CursorState): string => {
  const payload = Buffer.from(JSON.stringify(state)).toString("base64url")
  return `${payload}.${sign(secret, payload)}`
}

const invalid = new BadRequest({ message: "cursor is not valid; send next_cursor exactly as a previous page gave it" })

const readState = (payload: string): CursorState | null => {
  try {
    const state = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Partial<CursorState>
    return typeof state.k === "number" && typeof state.f === "string" ? { k: state.k, f: state.f } : null
  } catch {
    return null
  }
}

export const decodeCursor = (
  secret: string,
  cursor: string,
  filterKey: string
): Effect.Effect<CursorState, BadRequest> => {
  const [payload, mac] = cursor.split(".")
  if (!payload || !mac || cursor.length > 512) return Effect.fail(invalid)
  const expected = Buffer.from(sign(secret, payload))
  const given = Buffer.from(mac)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return Effect.fail(invalid)
  const state = readState(payload)
  if (state === null) return Effect.fail(invalid)
  if (state.f !== filterKey)
    return Effect.fail(new BadRequest({ message: "cursor belongs to a different query; start again without cursor" }))
  return Effect.succeed(state)
}

export const cursorSecret = Effect.map(AppConfig, (c) => Redacted.value(c.cursorSecret))
