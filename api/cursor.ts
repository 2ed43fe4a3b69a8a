import { Effect, Redacted } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import { AppConfig } from "../shared/config/AppConfig.js"
import { badRequest } from "./middleware/errors.js"

/**
 * Opaque keyset cursor: base64url(JSON) + "." + HMAC. Bound to the query's filters, so a
 * cursor replayed against other filters, or edited, is refused with 400.
 */
export interface CursorState {
  readonly k: number
  readonly f: string
}

const sign = (secret: string, payload: string) => createHmac("sha256", secret).update(payload).digest("base64url").slice(0, 22)

export const encodeCursor = (secret: string, state: CursorState): string => {
  const payload = Buffer.from(JSON.stringify(state)).toString("base64url")
  return `${payload}.${sign(secret, payload)}`
}

export const decodeCursor = (secret: string, cursor: string, filterKey: string): CursorState => {
  const [payload, mac] = cursor.split(".")
  if (!payload || !mac || cursor.length > 512) throw badRequest("cursor is not valid")
  const expected = Buffer.from(sign(secret, payload))
  const given = Buffer.from(mac)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw badRequest("cursor is not valid")
  let state: CursorState
  try {
    state = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as CursorState
  } catch {
    throw badRequest("cursor is not valid")
  }
  if (typeof state.k !== "number" || typeof state.f !== "string") throw badRequest("cursor is not valid")
  if (state.f !== filterKey) throw badRequest("cursor belongs to a different query; start again without cursor")
  return state
}

export const cursorSecret = Effect.map(AppConfig, (c) => Redacted.value(c.cursorSecret))
