import { Effect } from "effect"
import { randomBytes, timingSafeEqual } from "node:crypto"
import { Forbidden } from "../http/HttpError.js"
import { BrowserRequest } from "./BrowserRequest.js"

export const CSRF_COOKIE = "rds_csrf"

const refuse = (why: string) =>
  new Forbidden({ message: `cross-site request refused: ${why}`, docsUrl: "/docs/portal#csrf" })

const same = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * The browser's CSRF token (a random value in an HttpOnly, SameSite=Strict cookie): made on the
 * first visit and handed to the page's own script through GET /portal/session, which another
 * site's page cannot read.
 */
export const csrfToken = Effect.map(BrowserRequest, (b) => {
  const existing = b.getCookie(CSRF_COOKIE)
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing
  const token = randomBytes(32).toString("base64url")
  b.setCookie(CSRF_COOKIE, token, { sameSite: "strict" })
  return token
})

/** A new token after log-in or log-out, so one seen before cannot be reused. */
export const renewCsrf = Effect.map(BrowserRequest, (b) => {
  const token = randomBytes(32).toString("base64url")
  b.setCookie(CSRF_COOKIE, token, { sameSite: "strict" })
  return token
})

/**
 * Every state-changing portal call: a request another site made (its Origin, or Sec-Fetch-Site
 * cross-site) is refused, and the X-CSRF-Token header must equal the cookie's token.
 */
export const checkCsrf = Effect.flatMap(BrowserRequest, (b) => {
  if (b.fetchSite === "cross-site") return Effect.fail(refuse("sent from another site"))
  if (b.origin && b.origin !== b.ownOrigin && b.origin !== new URL(b.portalUrl).origin)
    return Effect.fail(refuse(`origin ${b.origin.slice(0, 100)} is not the portal's`))
  const cookie = b.getCookie(CSRF_COOKIE)
  if (!cookie || !b.csrfHeader) return Effect.fail(refuse("the X-CSRF-Token header is missing; reload the page"))
  if (!same(cookie, b.csrfHeader)) return Effect.fail(refuse("the X-CSRF-Token header does not match; reload the page"))
  return Effect.void
})
