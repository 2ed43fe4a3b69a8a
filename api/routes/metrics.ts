import { Redacted } from "effect"
import type Router from "@koa/router"
import type Koa from "koa"
import { createHash, timingSafeEqual } from "node:crypto"
import { Unauthorized } from "../http/HttpError.js"
import type { ApiMetrics } from "../metrics/registry.js"

const digest = (s: string) => createHash("sha256").update(s).digest()

/**
 * GET /metrics (Prometheus text). Off unless METRICS_TOKEN is set; then only with
 * `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time.
 */
export const metricsEndpoint = (metrics: ApiMetrics, token: Redacted.Redacted<string> | undefined): Koa.Middleware => {
  const expected = token === undefined ? undefined : digest(Redacted.value(token))
  return async (ctx, next) => {
    if (ctx.path !== "/metrics" || ctx.method !== "GET") return next()
    if (expected === undefined) return next() // not exposed: an ordinary 404
    const auth = ctx.get("authorization")
    const given = auth.startsWith("Bearer ") ? auth.slice(7).trim() : ""
    if (!timingSafeEqual(digest(given), expected)) {
      throw new Unauthorized({
        message: "metrics need Authorization: Bearer <METRICS_TOKEN>",
        headers: { "WWW-Authenticate": 'Bearer realm="metrics"' }
      })
    }
    ctx.set("Content-Type", metrics.contentType)
    ctx.body = await metrics.render()
  }
}

/** Counts and times every request by its route template (not its raw path, which would explode label cardinality). */
export const requestMetrics =
  (metrics: ApiMetrics): Koa.Middleware =>
  async (ctx, next) => {
    const started = process.hrtime.bigint()
    try {
      await next()
    } finally {
      if (ctx.path !== "/metrics") {
        // the router sets the matched template on the context once it has routed the request
        const route = (ctx as Partial<Router.RouterParamContext>)._matchedRoute ?? "unmatched"
        metrics.observe(String(route), ctx.method, ctx.status, Number(process.hrtime.bigint() - started) / 1e9)
      }
    }
  }
