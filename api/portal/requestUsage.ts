import { SqlClient } from "@effect/sql"
import { Effect, Schedule } from "effect"
import { Redis, type RedisService } from "../../shared/db/Redis.js"
import { nowMillis } from "../../shared/time/Now.js"

/**
 * Requests per customer per UTC day. Every keyed request adds one in a Redis hash of the day
 * (in the rate limiter's MULTI, so it costs no extra round trip); each API process copies the
 * hashes of today and yesterday into Postgres once a minute. The copy is the day's total, so
 * several processes writing it agree, and a Redis that lost its data loses at most a minute.
 */
export const USAGE_TTL_S = 3 * 86_400
export const usageKey = (redis: RedisService, day: string) => redis.key("usage", day)

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)

const countsOf = (day: string) =>
  Effect.flatMap(Redis, (redis) => redis.use("usage read", (c) => c.hGetAll(usageKey(redis, day))))

/** One copy of today's and yesterday's counts into request_usage. */
export const flushUsage = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const now = yield* nowMillis
  for (const day of [dayOf(now - 86_400_000), dayOf(now)]) {
    const counts = yield* countsOf(day)
    const rows = Object.entries(counts).map(([customer, n]) => ({ customer_id: Number(customer), requests: Number(n) }))
    if (rows.length === 0) continue
    yield* sql`
      INSERT INTO request_usage (customer_id, day, requests)
      SELECT x.customer_id, ${day}::date, x.requests FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(customer_id bigint, requests bigint)
      WHERE EXISTS (SELECT 1 FROM customers c WHERE c.id = x.customer_id)
      ON CONFLICT (customer_id, day) DO UPDATE SET requests = greatest(request_usage.requests, excluded.requests)`
  }
})

/** The API process's minute-by-minute copy; a failed copy is logged and tried again next minute. */
export const usageFlusher = flushUsage.pipe(
  Effect.catchAllCause((c) => Effect.logWarning("request usage not copied to Postgres", c)),
  Effect.repeat(Schedule.spaced("60 seconds"))
)

/** The customer's requests on each of the last `days` UTC days, oldest first, today from Redis. */
export const usageByDay = (customerId: number, days: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = yield* nowMillis
    const first = dayOf(now - (days - 1) * 86_400_000)
    const rows = yield* sql<{ day: string; requests: string }>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, requests::text FROM request_usage WHERE customer_id = ${customerId} AND day >= ${first}::date`
    const stored = new Map(rows.map((r) => [r.day, Number(r.requests)]))
    const out: Array<{ day: string; requests: number }> = []
    for (let i = days - 1; i >= 0; i--) {
      const day = dayOf(now - i * 86_400_000)
      const live = i <= 1 ? Number((yield* countsOf(day))[String(customerId)] ?? 0) : 0
      out.push({ day, requests: Math.max(stored.get(day) ?? 0, live) })
    }
    return out
  })
