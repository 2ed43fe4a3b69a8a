import { randomUUID } from "node:crypto"
import type Koa from "koa"
import { type HttpAnswer, httpAnswer, statusAnswer } from "../http/HttpError.js"

const send = (ctx: Koa.Context, a: HttpAnswer) => {
  ctx.status = a.status
  for (const [k, v] of Object.entries(a.headers)) ctx.set(k, v)
  ctx.body = a.body
}

/**
 * Outermost middleware and the one place errors become HTTP bodies (SPEC §2.7): every response
 * gets an `X-Request-Id`; a tagged error gets its answer from `httpAnswer`; a status Koa or the
 * body parser set without a body of ours (404, 405, 413, malformed JSON) gets `statusAnswer`;
 * anything else is logged with the request id and answered 500 without internals.
 */
export const errorMiddleware: Koa.Middleware = async (ctx, next) => {
  const requestId = randomUUID()
  ctx.state.requestId = requestId
  ctx.set("X-Request-Id", requestId)
  try {
    await next()
    if (ctx.status >= 400 && ctx.body == null)
      send(ctx, statusAnswer(ctx.status, ctx.method, ctx.path, ctx.response.get("Allow") || undefined))
  } catch (e) {
    const known = httpAnswer(e)
    if (known) return send(ctx, known)
    const status = (e as { status?: number }).status
    // koa and body-parser errors (bad JSON, too large, wrong type) carry a 4xx status; their text is not echoed
    if (typeof status === "number" && status >= 400 && status < 500)
      return send(ctx, statusAnswer(status, ctx.method, ctx.path))
    console.error(
      JSON.stringify({ level: "error", request_id: requestId, path: ctx.path, error: String((e as Error)?.stack ?? e) })
    )
    send(ctx, statusAnswer(500, ctx.method, ctx.path))
    ctx.body = { ...(ctx.body as object), request_id: requestId }
  }
}
