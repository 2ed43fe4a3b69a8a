import { Effect } from "effect"
import type Koa from "koa"
import { Forbidden } from "../http/HttpError.js"
import type { ResponseHeaders } from "../http/ResponseHeaders.js"
import type { AuthContext } from "../http/AuthContext.js"

const EXPOSED = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "X-RateLimit-Daily-Limit",
  "X-RateLimit-Daily-Remaining",
  "X-Jurisdiction-Warning",
  "X-Warnings",
  "X-Request-Id",
  "Retry-After",
  "ETag",
  "X-Cache"
].join(", ")

/**
 * Browser preflights carry no key, so they are answered for any origin; the real request is
 * where a key's `allowed_origins` is enforced (see `keyOrigins`).
 */
export const preflight: Koa.Middleware = async (ctx, next) => {
  const origin = ctx.get("origin")
  if (ctx.method === "OPTIONS" && origin) {
    ctx.set("Access-Control-Allow-Origin", origin)
    ctx.set("Vary", "Origin")
    ctx.set("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE, OPTIONS")
    ctx.set("Access-Control-Allow-Headers", "X-API-Key, Content-Type")
    ctx.set("Access-Control-Max-Age", "600")
    ctx.status = 204
    return
  }
  await next()
}

/**
 * A key with `allowed_origins` answers browsers only from those origins (403 otherwise); a key
 * without the list answers any origin. Requests without an Origin header (servers) are not
 * affected.
 */
export const checkOrigin = (origin: string, auth: AuthContext, headers: ResponseHeaders) =>
  Effect.suspend(() => {
    if (!origin) return Effect.void
    if (auth.allowedOrigins.length > 0 && !auth.allowedOrigins.includes(origin)) {
      return Effect.fail(
        new Forbidden({
          message: `origin ${origin.slice(0, 200)} is not allowed for this API key`,
          docsUrl: "/docs/authentication#origins"
        })
      )
    }
    headers.set("Access-Control-Allow-Origin", origin)
    headers.set("Vary", "Origin")
    headers.set("Access-Control-Expose-Headers", EXPOSED)
    return Effect.void
  })

/** Public endpoints (health, status) may be read from any page. */
export const publicOrigins: Koa.Middleware = async (ctx, next) => {
  if (ctx.get("origin")) ctx.set("Access-Control-Allow-Origin", "*")
  await next()
}
