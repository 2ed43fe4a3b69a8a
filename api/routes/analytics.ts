import Router from "@koa/router"
import type { AuthContext } from "../middleware/auth.js"
import { ApiError, badRequest } from "../middleware/errors.js"
import { planGate } from "../middleware/planGate.js"
import { eventHistory, getEvent } from "../queries/EventsQuery.js"
import type { ApiRuntime } from "../runtime.js"

/** Analytics over event history (Pro and above). */
export const analyticsRouter = (rt: ApiRuntime) => {
  const router = new Router()
  router.use("/analytics", async (ctx, next) => {
    const auth = ctx.state.auth as AuthContext
    if (!auth.plan.allow_analytics) throw planGate(auth, "plan_analytics", "analytics are available on Pro and above")
    await next()
  })

  router.get("/analytics/history/:id", async (ctx) => {
    const id = ctx.params.id
    if (id.length > 200) throw badRequest("id is too long")
    const rows = await rt.run(eventHistory(id))
    if (rows.length === 0 && !(await rt.run(getEvent(id)))) {
      throw new ApiError(404, `no event with id ${id}`, { docs_url: "/docs/api#analytics" })
    }
    ctx.body = rows
  })
  return router
}
