import { Effect } from "effect"
import { Redis } from "../../shared/db/Redis.js"
import { nowMillis } from "../../shared/time/Now.js"
import { RateLimited } from "../http/HttpError.js"
import type { ResponseHeaders } from "../http/ResponseHeaders.js"
import { USAGE_TTL_S, usageKey } from "../portal/requestUsage.js"
import type { AuthContext } from "../http/AuthContext.js"

/*
 * One request counted in one round trip: the minute's window (kept 2 minutes), the UTC day's
 * window when the plan has one (KEYS[2] empty otherwise; kept 2 days), and the customer's
 * requests of the day for the portal's usage chart (flushed to Postgres by requestUsage). One
 * script where a MULTI of six commands cost the API a fifth of a cached answer's allocations.
 */
const COUNT_REQUEST = `
local m = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], 120)
local d = 0
if KEYS[2] ~= '' then
  d = redis.call('INCR', KEYS[2])
  redis.call('EXPIRE', KEYS[2], 172800)
end
redis.call('HINCRBY', KEYS[3], ARGV[1], 1)
redis.call('EXPIRE', KEYS[3], tonumber(ARGV[2]))
return {m, d}`

/**
 * Per-key limits in Redis, so every API process counts together: a fixed one-minute window of
 * `rate_limit_rpm` (the key's own value, else the plan's) and, where the plan has one, a UTC
 * day of `daily_request_limit`, counted together by one script (COUNT_REQUEST). Every keyed
 * response carries X-RateLimit-Limit / -Remaining / -Reset (seconds), and the daily pair
 * X-RateLimit-Daily-Limit / -Remaining when a daily limit applies; a refusal is 429 with
 * Retry-After.
 */
export const rateLimit = (auth: AuthContext, headers: ResponseHeaders) =>
  Effect.gen(function* () {
    const redis = yield* Redis
    const nowS = Math.floor((yield* nowMillis) / 1000)
    const minute = Math.floor(nowS / 60)
    const day = new Date(nowS * 1000).toISOString().slice(0, 10)
    const daily = auth.plan.daily_request_limit
    const [perMinute, perDay] = yield* redis.use("rate limit", async (c) => {
      const r = (await c.eval(COUNT_REQUEST, {
        keys: [
          redis.key("rl", String(auth.keyId), String(minute)),
          daily !== null ? redis.key("rld", String(auth.keyId), day) : "",
          usageKey(redis, day)
        ],
        arguments: [String(auth.customerId), String(USAGE_TTL_S)]
      })) as [number, number]
      return [Number(r[0]), Number(r[1])] as const
    })
    const resetS = (minute + 1) * 60 - nowS
    headers.set("X-RateLimit-Limit", String(auth.rateLimitRpm))
    headers.set("X-RateLimit-Remaining", String(Math.max(0, auth.rateLimitRpm - perMinute)))
    headers.set("X-RateLimit-Reset", String(resetS))
    if (daily !== null) {
      headers.set("X-RateLimit-Daily-Limit", String(daily))
      headers.set("X-RateLimit-Daily-Remaining", String(Math.max(0, daily - perDay)))
    }
    if (daily !== null && perDay > daily) {
      return yield* new RateLimited({
        message: `daily request limit of ${daily} reached; it resets at 00:00 UTC`,
        retryAfterS: 86400 - (nowS % 86400)
      })
    }
    if (perMinute > auth.rateLimitRpm) {
      return yield* new RateLimited({
        message: `rate limit of ${auth.rateLimitRpm} requests per minute exceeded`,
        retryAfterS: resetS
      })
    }
  })
