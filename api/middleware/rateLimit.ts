import { Effect } from "effect"
import type Koa from "koa"
import { Redis } from "../../shared/db/Redis.js"
import { nowMillis } from "../../shared/time/Now.js"
import type { ApiRuntime } from "../runtime.js"
import type { AuthContext } from "./auth.js"
import { ApiError } from "./errors.js"

/**
 * Per-key limits in Redis, so every API process counts together: a fixed one-minute window of
 * `rate_limit_rpm` (the key's own value, else the plan's) and, where the plan has one, a UTC
 * day of `daily_request_limit`. Each window is one INCR + EXPIRE in a MULTI. Every keyed
 * response carries X-RateLimit-Limit / -Remaining / -Reset (seconds), and the daily pair
 * X-RateLimit-Daily-Limit / -Remaining when a daily limit applies; a refusal is 429 with
 * Retry-After.
 */
export const rateLimitMiddleware = (rt: ApiRuntime): Koa.Middleware => async (ctx, next) => {
  const auth = ctx.state.auth as AuthContext
  const nowS = Math.floor((await rt.run(nowMillis)) / 1000)
  const minute = Math.floor(nowS / 60)
  const day = new Date(nowS * 1000).toISOString().slice(0, 10)
  const daily = auth.plan.daily_request_limit
  const [perMinute, perDay] = await rt.run(
    Effect.flatMap(Redis, (redis) =>
      redis.use("rate limit", async (c) => {
        const m = c.multi()
        m.incr(redis.key("rl", String(auth.keyId), String(minute)))
        m.expire(redis.key("rl", String(auth.keyId), String(minute)), 120)
        if (daily !== null) {
          m.incr(redis.key("rld", String(auth.keyId), day))
          m.expire(redis.key("rld", String(auth.keyId), day), 2 * 86400)
        }
        const r = await m.exec()
        return [Number(r[0]), daily !== null ? Number(r[2]) : 0] as const
      })
    )
  )
  const resetS = (minute + 1) * 60 - nowS
  ctx.set("X-RateLimit-Limit", String(auth.rateLimitRpm))
  ctx.set("X-RateLimit-Remaining", String(Math.max(0, auth.rateLimitRpm - perMinute)))
  ctx.set("X-RateLimit-Reset", String(resetS))
  if (daily !== null) {
    ctx.set("X-RateLimit-Daily-Limit", String(daily))
    ctx.set("X-RateLimit-Daily-Remaining", String(Math.max(0, daily - perDay)))
  }
  if (daily !== null && perDay > daily) {
    const untilMidnight = 86400 - (nowS % 86400)
    throw new ApiError(429, `daily request limit of ${daily} reached; it resets at 00:00 UTC`, { docs_url: "/docs/limits" }, { "Retry-After": String(untilMidnight) })
  }
  if (perMinute > auth.rateLimitRpm) {
    throw new ApiError(429, `rate limit of ${auth.rateLimitRpm} requests per minute exceeded`, { docs_url: "/docs/limits" }, { "Retry-After": String(resetS) })
  }
  await next()
}
