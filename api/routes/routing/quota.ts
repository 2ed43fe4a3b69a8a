import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Redis } from "../../../shared/db/Redis.js"
import { nowMillis } from "../../../shared/time/Now.js"
import type { ResponseHeaders } from "../../http/Route.js"
import type { AuthContext } from "../../http/AuthContext.js"
import { planGate } from "../../middleware/planGate.js"
import { returnToPacks, takeFromPacks } from "./packs.js"

/**
 * Takes `cost` calls from the month's bucket (and the day's, where the plan caps days) in one
 * step, or none when either would go over. A counter Redis does not hold (first call of the
 * period, or Redis restarted empty) is answered -1 until the caller seeds it from Postgres.
 * KEYS: month, day ("" when no daily cap). ARGV: cost, month limit, day limit, month seed, day
 * seed, month ttl, day ttl. Answers {status, month used, day used}: 1 taken, 0 month full, 2 day full.
 */
const TAKE = `
local cost = tonumber(ARGV[1])
local hasDay = KEYS[2] ~= ""
for i, seed in ipairs({ARGV[4], ARGV[5]}) do
  if i == 1 or hasDay then
    if redis.call('EXISTS', KEYS[i]) == 0 then
      if tonumber(seed) < 0 then return {-1, 0, 0} end
      redis.call('SET', KEYS[i], seed, 'EX', ARGV[5 + i], 'NX')
    end
  end
end
local month = tonumber(redis.call('GET', KEYS[1]))
local day = hasDay and tonumber(redis.call('GET', KEYS[2])) or 0
if cost > 0 then
  if month + cost > tonumber(ARGV[2]) then return {0, month, day} end
  if hasDay and day + cost > tonumber(ARGV[3]) then return {2, month, day} end
  month = redis.call('INCRBY', KEYS[1], cost)
  if hasDay then day = redis.call('INCRBY', KEYS[2], cost) end
end
return {1, month, day}`

/** Gives calls back (the route failed), only to counters that still exist. */
const GIVE_BACK = `
for i, k in ipairs(KEYS) do
  if k ~= "" and redis.call('EXISTS', k) == 1 then redis.call('DECRBY', k, ARGV[1]) end
end
return 1`

const periods = (nowMs: number) => {
  const d = new Date(nowMs)
  const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
  return {
    month: d.toISOString().slice(0, 7),
    day: d.toISOString().slice(0, 10),
    nextMonth,
    nextDay: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
  }
}

const fmt = (n: number) => n.toLocaleString("en-US")

export interface RoutingCharge {
  /** the periods the calls count in, for the durable copy (the month's only when its bucket paid) */
  readonly periods: ReadonlyArray<string>
  readonly cost: number
  /** returns the calls when the route could not be made */
  readonly giveBack: Effect.Effect<void>
}

/**
 * Routing calls per plan (SPEC §8: a monthly bucket; refetching a saved route is free): takes
 * `cost` calls, atomically across API processes, and puts what is left in the answer's
 * headers. Cost 0 only reads. A full bucket is a 403 with its own code. `settle`, given by a
 * batch, waits for its earlier routes to end before a refusal or a pack payment is final.
 */
export const chargeRouting = (
  auth: AuthContext,
  cost: number,
  headers: ResponseHeaders,
  settle?: Effect.Effect<void>
) =>
  Effect.gen(function* () {
    const redis = yield* Redis
    const sql = yield* SqlClient.SqlClient
    const nowMs = yield* nowMillis
    const p = periods(nowMs)
    const cap = auth.plan.daily_routing_cap
    const limit = auth.plan.monthly_routing_quota
    const keys = [
      redis.key("rq", String(auth.customerId), p.month),
      cap !== null ? redis.key("rqd", String(auth.customerId), p.day) : ""
    ]
    const ttls = [String(Math.ceil((p.nextMonth - nowMs) / 1000) + 7 * 86400), String(2 * 86400)]
    const take = (seeds: [number, number]) =>
      redis
        .use("routing quota", (c) =>
          c.eval(TAKE, {
            keys,
            arguments: [String(cost), String(limit), String(cap ?? 0), String(seeds[0]), String(seeds[1]), ...ttls]
          })
        )
        .pipe(Effect.map((r) => (r as Array<number>).map(Number) as [number, number, number]))
    const takeSeeded = Effect.gen(function* () {
      const first = yield* take([-1, -1])
      if (first[0] !== -1) return first
      const rows = yield* sql<{ period: string; calls: number }>`
        SELECT period, calls FROM routing_usage WHERE customer_id = ${auth.customerId} AND period IN (${p.month}, ${p.day})`
      const used = (period: string) => rows.find((r) => r.period === period)?.calls ?? 0
      return yield* take([used(p.month), used(p.day)])
    })
    let [status, month, day] = yield* takeSeeded
    if (status !== 1 && settle !== undefined) {
      // an earlier route of the batch still running may fail and give its calls back
      yield* settle
      ;[status, month, day] = yield* takeSeeded
    }
    headers.set("X-Routing-Quota-Limit", String(limit))
    headers.set("X-Routing-Quota-Remaining", String(Math.max(0, limit - month)))
    headers.set("X-Routing-Quota-Reset", String(Math.ceil((p.nextMonth - nowMs) / 1000)))
    if (cap !== null) {
      headers.set("X-Routing-Daily-Limit", String(cap))
      headers.set("X-Routing-Daily-Remaining", String(Math.max(0, cap - day)))
    }
    if (status === 0) {
      // the month's bucket cannot cover the whole call: top-up packs pay for it, oldest first
      const paid = yield* takeFromPacks(auth.customerId, cost)
      if (paid) {
        headers.set("X-Routing-Packs-Remaining", String(paid.left))
        return {
          periods: [],
          cost,
          giveBack: Effect.ignore(Effect.provideService(returnToPacks(paid.takes), SqlClient.SqlClient, sql))
        } satisfies RoutingCharge
      }
      return yield* planGate(
        auth,
        "routing_quota_exhausted",
        `this request needs ${cost} routing call${cost === 1 ? "" : "s"} and ${fmt(Math.max(0, limit - month))} of the plan's ${fmt(limit)} this month are left, with no top-up pack to pay for it; the quota renews ${new Date(p.nextMonth).toISOString()}, or request a top-up pack in the portal`
      )
    }
    if (status === 2) {
      return yield* planGate(
        auth,
        "routing_daily_cap",
        `the trial's ${fmt(cap ?? 0)} routing calls for today are used; more are available from ${new Date(p.nextDay).toISOString()}, or choose a plan`
      )
    }
    const giveBack = redis
      .use("routing quota give back", (c) => c.eval(GIVE_BACK, { keys, arguments: [String(cost)] }))
      .pipe(
        Effect.catchAll((e) => Effect.logWarning(`routing calls not given back: ${e.message}`)),
        Effect.asVoid
      )
    return { periods: cap !== null ? [p.month, p.day] : [p.month], cost, giveBack } satisfies RoutingCharge
  })
