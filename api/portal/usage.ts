import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Redis } from "../../shared/db/Redis.js"
import { nowMillis } from "../../shared/time/Now.js"
import type { Plan } from "../http/AuthContext.js"
import { usageByDay } from "./requestUsage.js"

/**
 * What the usage page shows: today's requests against the plan's daily limit, each key's
 * requests this minute against its per-minute limit, 30 days of requests, and routing calls of
 * the month with the top-up packs behind them.
 */
export const usageOf = (customerId: number, plan: Plan) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const redis = yield* Redis
    const now = yield* nowMillis
    const days = yield* usageByDay(customerId, 30)
    const keys = yield* sql<{ id: number; name: string; key_prefix: string; rate_limit_rpm: number }>`
      SELECT k.id, k.name, k.key_prefix, COALESCE(k.rate_limit_rpm, p.rate_limit_rpm) AS rate_limit_rpm
      FROM api_keys k JOIN customers c ON c.id = k.customer_id JOIN plans p ON p.id = c.plan_id
      WHERE k.customer_id = ${customerId} AND k.is_active ORDER BY k.created_at, k.id`
    const minute = Math.floor(now / 60_000)
    const month = new Date(now).toISOString().slice(0, 7)
    const day = new Date(now).toISOString().slice(0, 10)
    const counters = yield* redis.use("usage counters", (r) =>
      r.mGet([
        redis.key("rq", String(customerId), month),
        redis.key("rqd", String(customerId), day),
        ...keys.map((k) => redis.key("rl", String(k.id), String(minute)))
      ])
    )
    const stored = yield* sql<{
      period: string
      calls: number
    }>`SELECT period, calls FROM routing_usage WHERE customer_id = ${customerId} AND period IN (${month}, ${day})`
    const storedOf = (p: string) => stored.find((s) => s.period === p)?.calls ?? 0
    const packs = yield* sql<{ id: number; calls: number; used: number; granted_at: string }>`
      SELECT id, calls, used, granted_at FROM routing_packs WHERE customer_id = ${customerId} ORDER BY granted_at, id`
    return {
      plan,
      today: {
        day,
        requests: days[days.length - 1].requests,
        daily_limit: plan.daily_request_limit,
        keys: keys.map((k, i) => ({ ...k, this_minute: Number(counters[2 + i] ?? 0) }))
      },
      days,
      routing: {
        month,
        used: Math.max(Number(counters[0] ?? 0), storedOf(month)),
        quota: plan.monthly_routing_quota,
        daily_cap: plan.daily_routing_cap,
        used_today: Math.max(Number(counters[1] ?? 0), storedOf(day)),
        packs,
        pack_calls_left: packs.reduce((n, p) => n + p.calls - p.used, 0)
      }
    }
  })
