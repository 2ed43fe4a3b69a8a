import { randomUUID } from "node:crypto"
import type Koa from "koa"

/** An answer the API chooses to give (4xx); the body follows SPEC §2.7. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {}
  ) {
    super(error)
  }
}

export const badRequest = (error: string) => new ApiError(400, error, { docs_url: "/docs/errors#400" })

/**
 * Outermost middleware: every response gets an `X-Request-Id`; an ApiError becomes its JSON
 * body; anything else is logged with the request id and answered 500 without internals.
 */
export const errorMiddleware: Koa.Middleware = async (ctx, next) => {
  const requestId = randomUUID()
  ctx.state.requestId = requestId
  ctx.set("X-Request-Id", requestId)
  try {
    await next()
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404
      ctx.body = { error: `no such endpoint: ${ctx.method} ${ctx.path}`, docs_url: "/docs/api" }
    }
  } catch (e) {
    if (e instanceof ApiError) {
      ctx.status = e.status
      for (const [k, v] of Object.entries(e.headers)) ctx.set(k, v)
      ctx.body = { error: e.error, ...e.extra }
      return
    }
    const status = (e as { status?: number; expose?: boolean }).status
    if (typeof status === "number" && status >= 400 && status < 500) {
      // koa/body-parser errors (bad JSON, too large) carry a status; their messages are safe
      ctx.status = status
      ctx.body = { error: status === 413 ? "request body too large" : "malformed request body" }
      return
    }
    console.error(JSON.stringify({ level: "error", request_id: requestId, path: ctx.path, error: String((e as Error)?.stack ?? e) }))
    ctx.status = 500
    ctx.body = { error: "internal server error; retry, and quote the request id if it persists", request_id: requestId }
  }
}
