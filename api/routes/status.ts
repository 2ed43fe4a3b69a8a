import Router from "@koa/router"
import { cached } from "../cached.js"
import { statusReport } from "../queries/Status.js"
import type { ApiRuntime } from "../runtime.js"

/** Public pipeline status (no key), cached 60 s. */
export const statusRouter = (rt: ApiRuntime) => {
  const router = new Router()
  const report = cached(60_000, statusReport)
  router.get("/status", async (ctx) => {
    ctx.set("Cache-Control", "public, max-age=60")
    ctx.body = await rt.run(report)
  })
  return router
}
