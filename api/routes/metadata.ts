import Router from "@koa/router"
import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import type { Effect } from "effect"
import { keyedCache } from "../cached.js"
import { badRequest } from "../middleware/errors.js"
import { OFFSET_CAP } from "../paging.js"
import { bool, int, list, str } from "../params.js"
import { listFuelPrices } from "../queries/FuelPrices.js"
import { coverageEntries, dataSources, statsSummary } from "../queries/Metadata.js"
import { cachedReference } from "../queries/Reference.js"
import type { ApiRuntime } from "../runtime.js"
import { cached } from "../cached.js"
import type { AuthContext } from "../middleware/auth.js"

const SCOPES = ["state", "federal", "regional", "all"] as const

/** Metadata endpoints (SPEC §4.6): a key, no particular plan. */
export const metadataRouter = (rt: ApiRuntime, startedAt: number) => {
  const router = new Router()
  const reference = cachedReference()
  const summary = cached(60_000, statsSummary)

  router.get("/jurisdictions", async (ctx) => {
    const scope = (str(ctx.query, "scope") ?? "state").toLowerCase()
    if (!SCOPES.includes(scope as (typeof SCOPES)[number])) throw badRequest(`scope must be one of ${SCOPES.join(", ")}`)
    const ref = await rt.run(reference)
    ctx.body = [...ref.jurisdictions.values()]
      .filter((j) => scope === "all" || j.scope === scope)
      .map(({ code, name, official_name, country, scope, group_id, is_active, last_sync_at }) => ({ code, name, official_name, country, scope, group_id, is_active, last_sync_at }))
  })

  router.get("/jurisdictions/groups", async (ctx) => {
    const ref = await rt.run(reference)
    ctx.body = ref.groups
  })

  const coverage = async (ctx: Router.RouterContext, codes: ReadonlyArray<string> | undefined) => {
    const ref = await rt.run(reference)
    const expanded = codes?.flatMap((c) => ref.expansion.get(c.toUpperCase()) ?? [c.toUpperCase()])
    ctx.body = { data: await rt.run(coverageEntries(expanded)) }
  }
  router.get("/coverage", (ctx) => coverage(ctx, list(ctx.query, "jurisdiction")))
  router.get("/coverage/:jurisdiction", (ctx) => coverage(ctx, [ctx.params.jurisdiction.slice(0, 40)]))

  router.get("/data-sources", async (ctx) => {
    ctx.body = { data: await rt.run(dataSources) }
  })

  router.get("/stats/summary", async (ctx) => {
    ctx.set("Cache-Control", "private, max-age=60")
    const s = await rt.run(summary)
    ctx.body = { ...s, uptime: Math.round((Date.now() - startedAt) / 1000) }
  })

  // prices change weekly or monthly: one day per distinct query (SPEC §8)
  const prices = keyedCache<Effect.Effect.Success<ReturnType<typeof listFuelPrices>>, SqlError, SqlClient.SqlClient>(24 * 3600_000, 500)
  router.get("/fuel-prices", async (ctx) => {
    const auth = ctx.state.auth as AuthContext
    const q = ctx.query
    const country = str(q, "country")?.toUpperCase()
    if (country !== undefined && country !== "US" && country !== "CA") throw badRequest("country must be US or CA")
    const limit = Math.min(int(q, "limit", 1, 1_000_000) ?? 100, auth.plan.max_limit)
    const offset = int(q, "offset", 0, OFFSET_CAP) ?? 0
    const filters = {
      country, fuelType: str(q, "fuel_type")?.toLowerCase(), jurisdictions: list(q, "jurisdiction")?.map((c) => c.toUpperCase()),
      latest: bool(q, "latest") ?? false, limit, offset
    }
    ctx.set("Cache-Control", "private, max-age=86400")
    const result = await rt.run(prices(JSON.stringify(filters), listFuelPrices(filters)))
    ctx.body = { data: result.rows, total: result.total, limit, offset, has_more: result.hasMore }
  })

  return router
}
