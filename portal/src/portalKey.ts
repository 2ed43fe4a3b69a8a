import { ApiError, call } from "./api.js"

/**
 * The map and the planner ask the service's own API as any client would, with a key of the
 * signed-in customer: a short-lived one, limited to this origin, named so the keys page says
 * what it is. It is kept in this browser (sessionStorage is per tab; localStorage would keep
 * one key for all tabs, so one visit a week makes one key) and made afresh when it ends or is
 * revoked.
 */
const STORE = "road-data.portal-key"
const LIFETIME_DAYS = 7
/** a key this close to its end is replaced rather than used */
const MARGIN_MS = 3_600_000

interface Kept {
  readonly customerId: number
  readonly key: string
  readonly expiresAt: string
}

const read = (customerId: number): string | null => {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) ?? "null") as Kept | null
    if (kept && kept.customerId === customerId && Date.parse(kept.expiresAt) - MARGIN_MS > Date.now()) return kept.key
  } catch {
    // storage off or garbled: make a new key
  }
  return null
}

const make = async (customerId: number) => {
  const expiresAt = new Date(Date.now() + LIFETIME_DAYS * 86_400_000).toISOString()
  const made = await call<{ key: string }>("POST", "/portal/keys", {
    name: "Portal map and route planner",
    allowed_origins: [location.origin],
    expires_at: expiresAt
  })
  try {
    localStorage.setItem(STORE, JSON.stringify({ customerId, key: made.key, expiresAt } satisfies Kept))
  } catch {
    // not kept: the next visit makes another
  }
  return made.key
}

let making: Promise<string> | null = null

/** This browser's key for the signed-in customer, made when there is none (once, however many ask at the same time). */
export const portalKey = async (customerId: number, fresh = false): Promise<string> => {
  if (!fresh) {
    const kept = read(customerId)
    if (kept) return kept
  }
  making ??= make(customerId).finally(() => {
    making = null
  })
  return making
}

/** Drops the kept key (it answered 401: revoked on the keys page, or expired). */
export const forgetPortalKey = () => {
  try {
    localStorage.removeItem(STORE)
  } catch {
    // nothing kept
  }
}

/** A keyed call to the API that replaces a revoked or expired key once. */
export const keyedCall = async <T>(
  customerId: number,
  method: "GET" | "POST" | "DELETE",
  path: string,
  body?: unknown
): Promise<T> => {
  const key = await portalKey(customerId)
  try {
    return await call<T>(method, path, body, key)
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e
    forgetPortalKey()
    return call<T>(method, path, body, await portalKey(customerId, true))
  }
}

/** A keyed GET of the page's own customer, as the map's and planner's parts take it. */
export type Get = <T>(path: string) => Promise<T>

export const keyedGet = <T>(customerId: number, path: string): Promise<T> => keyedCall<T>(customerId, "GET", path)
