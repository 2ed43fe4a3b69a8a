import { bodyParser } from "@koa/bodyparser"
import Router from "@koa/router"
import Koa from "koa"
import type { Redacted } from "effect"
import { PayloadTooLarge } from "./http/HttpError.js"
import { mountRoutes, type SharedAnswers } from "./http/mountRoutes.js"
import { makeAuthenticator } from "./middleware/auth.js"
import { preflight, publicOrigins } from "./middleware/cors.js"
import { errorMiddleware } from "./middleware/errors.js"
import { bodyGuard, urlGuard } from "./middleware/inputGuard.js"
import { makeMetrics } from "./metrics/registry.js"
import { docsRouter, openApiRouter } from "./routes/docs.js"
import { apiRoutes } from "./routes/index.js"
import { portalRoutes } from "./routes/portal/index.js"
import { type PortalAssets, servePortal } from "./portal/servePortal.js"
import { metricsEndpoint, requestMetrics } from "./routes/metrics.js"
import type { ApiRuntime } from "./runtime.js"
import type { ReadReplicasShape } from "./db/ReadReplicas.js"
import type { HazardCellStore } from "../shared/routing/hazards/HazardCells.js"
import type { StandingBarriersShape } from "../shared/routing/plan/standingBarriers.js"

/** Largest request body any endpoint accepts. */
export const MAX_BODY_BYTES = 1024 * 1024

export interface AppOptions {
  /** the portal's public address; this server's own (http://localhost:<port>) when unset */
  readonly portalUrl?: (() => string) | undefined
  readonly metricsToken?: Redacted.Redacted<string> | undefined
  readonly startedAt?: number
  /** the built portal (dist/portal); the default is read from disk at start */
  readonly portalAssets?: PortalAssets
  /** this worker's shared answers; none: every answer is computed */
  readonly cache?: SharedAnswers | undefined
  /** where data reads may go (DATABASE_READ_URL); none: every read on the primary */
  readonly replicas?: ReadReplicasShape | undefined
  /** this worker's barriers known ahead of routes (for a metric) */
  readonly barriers?: StandingBarriersShape | undefined
  /** this worker's kept route reads (for a metric) */
  readonly routeReads?: HazardCellStore | undefined
}

/** Middleware order lives here and only here. */
export const buildApp = (rt: ApiRuntime, options: AppOptions = {}) => {
  const startedAt = options.startedAt ?? Date.now()
  const app = new Koa()
  app.proxy = false
  const metrics = makeMetrics(rt, options.cache, options.replicas, options.barriers, options.routeReads)
  app.use(requestMetrics(metrics))
  app.use(errorMiddleware)
  app.use(metricsEndpoint(metrics, options.metricsToken))
  app.use(async (ctx, next) => {
    if (Number(ctx.get("content-length") || "0") > MAX_BODY_BYTES)
      throw new PayloadTooLarge({ maxBytes: MAX_BODY_BYTES })
    ctx.set("Cache-Control", "no-store")
    await next()
  })
  app.use(urlGuard)
  app.use(preflight)
  // JSON bodies only, at most MAX_BODY_BYTES; a malformed one is a 400 (errorMiddleware)
  app.use(bodyParser({ enableTypes: ["json"], jsonLimit: MAX_BODY_BYTES, encoding: "utf-8" }))
  app.use(bodyGuard)

  const v1 = new Router({ prefix: "/api/v1" })
  v1.use("/openapi.json", publicOrigins)
  v1.use(openApiRouter().routes())
  const portalUrl = options.portalUrl ?? (() => "http://localhost:3000")
  mountRoutes(v1, [...apiRoutes(startedAt), ...portalRoutes], rt, {
    authenticate: makeAuthenticator(portalUrl),
    portalUrl,
    cache: options.cache,
    replicas: options.replicas
  })
  app.use(v1.routes())
  // a known path with another method: 405 with Allow; errorMiddleware writes the body
  app.use(v1.allowedMethods())
  app.use(docsRouter().routes())
  app.use(servePortal(options.portalAssets))
  return app
}
