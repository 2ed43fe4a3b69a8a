import Router from "@koa/router"
import { cachedPublicGet } from "../cached.js"
import { statusReport } from "../queries/Status.js"
import type { ApiRuntime } from "../runtime.js"

/** Public pipeline status (no key), cached 60 s. */
export const statusRouter = (rt: ApiRuntime) => {
  const router = new Router()
  cachedPublicGet(router, rt, "/status", 60_000, statusReport)
  return router
}
