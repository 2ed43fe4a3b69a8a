import { bodyParser } from "@koa/bodyparser"
import Router from "@koa/router"
import Koa from "koa"
import type { Redacted } from "effect"
import { authMiddleware } from "./middleware/auth.js"
import { keyOrigins, preflight, publicOrigins } from "./middleware/cors.js"
import { bodyGuard, urlGuard } from "./middleware/inputGuard.js"
import { rateLimitMiddleware } from "./middleware/rateLimit.js"
import { ApiError, errorMiddleware } from "./middleware/errors.js"
import { accountRouter, plansRouter } from "./routes/account.js"
import { analyticsRouter } from "./routes/analytics.js"
import { makeMetrics } from "./metrics/registry.js"
import { docsRouter, openApiRouter } from "./routes/docs.js"
import { metricsEndpoint, requestMetrics } from "./routes/metrics.js"
import { eventsRouter } from "./routes/events.js"
import { featureDetailsRouter } from "./routes/featureDetails.js"
import { featuresRouter } from "./routes/features.js"
import { healthRouter } from "./routes/health.js"
import { metadataRouter } from "./routes/metadata.js"
import { statusRouter } from "./routes/status.js"
import { truckRouter } from "./routes/truck.js"
import { webhooksRouter } from "./routes/webhooks.js"
import type { ApiRuntime } from "./runtime.js"

/** Largest request body any endpoint accepts. */
export const MAX_BODY_BYTES = 1024 * 1024

export interface AppOptions {
  readonly portalUrl?: string | undefined
  readonly metricsToken?: Redacted.Redacted<string> | undefined
  readonly startedAt?: number
}

/** Middleware order lives here and only here. */
export const buildApp = (rt: ApiRuntime, options: AppOptions = {}) => {
  const startedAt = options.startedAt ?? Date.now()
  const app = new Koa()
  app.proxy = false
  const metrics = makeMetrics(rt)
  app.use(requestMetrics(metrics))
  app.use(errorMiddleware)
  app.use(metricsEndpoint(metrics, options.metricsToken))
  app.use(async (ctx, next) => {
    const length = Number(ctx.get("content-length") || "0")
    if (length > MAX_BODY_BYTES) throw new ApiError(413, `request body too large (at most ${MAX_BODY_BYTES} bytes)`)
    ctx.set("Cache-Control", "no-store")
    await next()
  })

  app.use(urlGuard)
  app.use(preflight)
  const v1 = new Router({ prefix: "/api/v1" })
  // public: no key
  v1.use(["/health", "/status"], publicOrigins)
  v1.use(healthRouter(rt, startedAt).routes())
  v1.use(statusRouter(rt).routes())
  v1.use(["/openapi.json", "/plans"], publicOrigins)
  v1.use(openApiRouter().routes())
  v1.use(plansRouter(rt).routes())
  // everything after this needs a key
  const data = new Router()
  data.use(authMiddleware(rt, options.portalUrl))
  data.use(keyOrigins)
  data.use(rateLimitMiddleware(rt))
  // JSON bodies only, at most MAX_BODY_BYTES; a malformed one is a 400 (errorMiddleware)
  data.use(bodyParser({ enableTypes: ["json"], jsonLimit: MAX_BODY_BYTES, encoding: "utf-8" }))
  data.use(bodyGuard)
  data.use(eventsRouter(rt).routes())
  data.use(featuresRouter(rt).routes())
  data.use(featureDetailsRouter(rt).routes())
  data.use(metadataRouter(rt, startedAt).routes())
  data.use(analyticsRouter(rt).routes())
  data.use(truckRouter(rt).routes())
  data.use(webhooksRouter(rt).routes())
  data.use(accountRouter(rt).routes())
  v1.use(data.routes())

  app.use(v1.routes())
  app.use(docsRouter().routes())
  app.use(v1.allowedMethods())
  return app
}
