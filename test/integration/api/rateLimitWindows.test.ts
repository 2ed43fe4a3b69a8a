import { layer } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import { afterAll, expect } from "vitest"
import { rateLimit } from "../../../api/middleware/rateLimit.js"
import type { AuthContext, Plan } from "../../../api/http/AuthContext.js"
import { makeTestEnv } from "../../support/harness.js"

/**
 * The limiter's windows on Effect's clock (a TestClock here) against the real Redis script: the
 * minute's window and the UTC day's, each refusing at its limit with the Retry-After that reaches
 * its end, and starting afresh when the clock crosses it. No request waits for the wall clock.
 */
const env = makeTestEnv()
afterAll(() => env.cleanup())

const plan = (daily: number | null): Plan => ({
  id: 1,
  code: "test",
  name: "Test",
  allow_analytics: true,
  allow_geojson: true,
  allow_truck_data: true,
  allow_webhooks: true,
  data_delay_sec: 0,
  rate_limit_rpm: 3,
  daily_request_limit: daily,
  max_limit: 100,
  max_batch_size: 10,
  max_jurisdictions: null,
  requires_jurisdiction: false,
  allow_archived_events: true,
  allow_inactive_features: true,
  event_history_days: null,
  saved_route_slots: 0,
  monthly_routing_quota: 0,
  daily_routing_cap: null,
  trial_days: null
})
const auth = (keyId: number, rpm: number, daily: number | null = null): AuthContext => ({
  keyId,
  customerId: keyId,
  email: `k${keyId}@example.com`,
  plan: plan(daily),
  rateLimitRpm: rpm,
  allowedOrigins: [],
  expiresAt: null,
  trialEndsAt: null,
  subscriptionEndsAt: null,
  subscriptionStatus: "active",
  portalUrl: undefined
})

/** One counted request: its headers, and the refusal's Retry-After when it was refused. */
const request = (a: AuthContext) =>
  Effect.gen(function* () {
    const headers = new Map<string, string>()
    const outcome = yield* Effect.either(rateLimit(a, { set: (k, v) => void headers.set(k, v) }))
    return {
      remaining: headers.get("X-RateLimit-Remaining"),
      reset: headers.get("X-RateLimit-Reset"),
      daily: headers.get("X-RateLimit-Daily-Remaining"),
      refused:
        Either.isLeft(outcome) && outcome.left._tag === "RateLimited"
          ? { retryAfterS: outcome.left.retryAfterS, message: outcome.left.message }
          : Either.isLeft(outcome)
            ? { retryAfterS: -1, message: String(outcome.left) }
            : null
    }
  })

layer(env.layer)("rate limit windows", (it) => {
  it.effect("the minute's window refuses past its limit until the clock crosses into the next minute", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 2, 1, 10, 0, 57))
      const a = auth(101, 3)
      const first = [yield* request(a), yield* request(a), yield* request(a), yield* request(a)]
      expect(first.map((r) => [r.remaining, r.reset])).toEqual([
        ["2", "3"],
        ["1", "3"],
        ["0", "3"],
        ["0", "3"]
      ])
      expect(first.slice(0, 3).every((r) => r.refused === null)).toBe(true)
      expect(first[3].refused).toEqual({ retryAfterS: 3, message: "rate limit of 3 requests per minute exceeded" })
      // still 10:00:59.999: refused
      yield* TestClock.adjust(2999)
      expect((yield* request(a)).refused?.retryAfterS).toBe(1)
      // 10:01:00: a new window
      yield* TestClock.adjust(1)
      const next = yield* request(a)
      expect([next.remaining, next.reset, next.refused]).toEqual(["2", "60", null])
    })
  )

  it.effect(
    "the UTC day's window refuses past the plan's daily limit until 00:00 UTC, whatever the minute's window says",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2026, 2, 1, 23, 58, 0))
        const a = auth(102, 100, 2)
        const day = [yield* request(a), yield* request(a)]
        expect(day.map((r) => [r.daily, r.refused])).toEqual([
          ["1", null],
          ["0", null]
        ])
        // a minute later the minute's window is fresh, the day's is not
        yield* TestClock.adjust(60_000)
        const over = yield* request(a)
        expect([over.remaining, over.daily]).toEqual(["99", "0"])
        expect(over.refused).toEqual({
          retryAfterS: 60,
          message: "daily request limit of 2 reached; it resets at 00:00 UTC"
        })
        // 00:00 UTC: a new day
        yield* TestClock.adjust(60_000)
        const tomorrow = yield* request(a)
        expect([tomorrow.daily, tomorrow.refused]).toEqual(["1", null])
      })
  )
})
