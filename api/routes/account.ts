import Router from "@koa/router"
import { cachedPublicGet } from "../cached.js"
import type { AuthContext } from "../middleware/auth.js"
import { accountOf, listPlans } from "../queries/Account.js"
import type { ApiRuntime } from "../runtime.js"

/** Public plan catalogue: what each plan allows, for clients that show upgrade choices. */
export const plansRouter = (rt: ApiRuntime) => {
  const router = new Router()
  cachedPublicGet(router, rt, "/plans", 3_600_000, listPlans)
  return router
}

/** The caller's own account (SPEC §2.9 Customer, APIKey and Plan). */
export const accountRouter = (rt: ApiRuntime) => {
  const router = new Router()
  router.get("/account", async (ctx) => {
    ctx.body = await rt.run(accountOf((ctx.state.auth as AuthContext).keyId))
  })
  return router
}
