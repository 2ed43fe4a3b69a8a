import Router from "@koa/router"
import { ApiError, badRequest } from "../middleware/errors.js"
import { requirePlan } from "../middleware/planGate.js"
import { eventHistory, getEvent } from "../queries/EventsQuery.js"
import type { ApiRuntime } from "../runtime.js"

/** Analytics over event history (Pro and above). */
export const analyticsRouter = (rt: ApiRuntime) => {
  const router = new Router()
  router.use("/analytics", requirePlan((p) => p.allow_analytics, "plan_analytics", "analytics are available on Pro and above"))

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
