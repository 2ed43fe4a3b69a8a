import type Router from "@koa/router"
import { Cause, Effect, Exit } from "effect"
import type Koa from "koa"
import type { ApiRuntime } from "../runtime.js"
import type { Admission, AdmissionRequest } from "./access.js"
import { Reply, type ResponseHeaders, type Route } from "./Route.js"
import { type PreparedAnswer, prepareJson, writePrepared } from "./preparedAnswer.js"
import { Prepared } from "./sharedAnswer.js"
import { spanFrom, tracingOn } from "../../shared/observability/Tracing.js"

export type { Admission }
export type { SharedAnswers } from "./sharedAnswer.js"

const isJsonType = (type: string | undefined) => type === undefined || type.includes("json")
const isJsonBody = (body: unknown) =>
  body !== null &&
  typeof body === "object" &&
  !Buffer.isBuffer(body) &&
  typeof (body as { pipe?: unknown }).pipe !== "function"

/**
 * Keyed answers may be stored by the caller but are revalidated (ETag) before reuse; metadata routes keep SPEC §8's
 * max-age.
 */
const cacheControlOf = (r: Route) => r.cacheControl ?? (r.access.kind === "key" ? "private, no-cache" : undefined)

/** The lowest 2xx a route documents: its answer's status unless the handler replies otherwise. */
const defaultStatus = (r: Route) =>
  Math.min(
    ...Object.keys(r.responses)
      .map(Number)
      .filter((s) => s < 300)
  )

/**
 * The one bridge from Koa into Effect. Each request is one Effect run: admission (key, origin,
 * rate limit, the route's plan flag), then, for a `shared` route, the worker's shared answer to
 * the same question and plan view, else decoding of path, query and body with the route's
 * Schemas (a 400 naming the parameter) and the handler. Every JSON GET answer is serialized once
 * with its ETag, so If-None-Match gets 304. A failure is rethrown as its own tagged error for
 * `errorMiddleware`, the one place errors become HTTP bodies. No tracing spans are made on this
 * path (about a tenth of a request's CPU) unless traces are configured (OTEL_EXPORTER_OTLP_ENDPOINT).
 */
export const mountRoutes = (router: Router, routes: ReadonlyArray<Route>, rt: ApiRuntime, admission: Admission) => {
  for (const r of routes) {
    const status = defaultStatus(r)
    const prepare = (value: unknown, recorded: ReadonlyArray<readonly [string, string]>): PreparedAnswer => {
      const reply = value instanceof Reply ? value : new Reply(status, value)
      const type = reply.contentType ?? r.responses[reply.status]?.contentType ?? "application/json"
      return prepareJson(reply.status, reply.body, type, recorded)
    }
    router[r.method](r.path, async (ctx) => {
      // recorded, then written: what a handler's closures hold is these few strings, not the
      // Koa context (and through it the answer; see keptByScavenges below)
      const recorded: Array<readonly [string, string]> = []
      const headers: ResponseHeaders = { set: (name, value) => void recorded.push([name, value]) }
      const req: AdmissionRequest = {
        ctx,
        method: r.method,
        gate: r.gate,
        shared: r.shared ?? false,
        operationId: r.operationId,
        headers,
        admission,
        rt,
        prepare
      }
      const raw = { params: ctx.params ?? {}, query: ctx.query, body: (ctx.request as { body?: unknown }).body }
      const exit = await rt.runExit(withRequestSpan(r, ctx, r.run(req, raw)))
      for (const [name, value] of recorded) ctx.set(name, value)
      if (Exit.isFailure(exit)) throw Cause.squash(exit.cause)
      if (exit.value instanceof Prepared) return writePrepared(ctx as Koa.Context, exit.value.answer, cacheControlOf(r))
      const reply = exit.value instanceof Reply ? exit.value : new Reply(status, exit.value)
      const type = reply.contentType ?? r.responses[reply.status]?.contentType
      // every JSON GET answer gets a validator, shared or not; a body already serialized (the
      // saved-route refetch, different at every instant) is written as it is, without one
      if (r.method === "get" && reply.status === 200 && isJsonBody(reply.body) && isJsonType(type)) {
        return writePrepared(
          ctx as Koa.Context,
          prepareJson(200, reply.body, type ?? "application/json"),
          cacheControlOf(r)
        )
      }
      ctx.status = reply.status
      if (reply.body !== undefined) ctx.body = reply.body
      if (r.cacheControl) ctx.set("Cache-Control", r.cacheControl)
      // after the body: Koa types an object body as JSON
      if (type && reply.body !== undefined) ctx.type = type
    })
  }
}

/**
 * A request's server span (its parent the caller's `traceparent`, when sent), when traces are
 * configured; else no span at all.
 */
const withRequestSpan = <A, E, R>(r: Route, ctx: Koa.ParameterizedContext, effect: Effect.Effect<A, E, R>) => {
  // what a request logs carries its id, the one its answer's X-Request-Id names
  const logged = Effect.annotateLogs(effect, "request_id", String(ctx.state.requestId ?? ""))
  // without traces the runtime itself runs with the tracer off (api/server.ts): nothing to set per request
  return tracingOn
    ? logged.pipe(
        spanFrom(`${r.method.toUpperCase()} ${r.path}`, ctx.get("traceparent") || undefined, {
          kind: "server",
          attributes: {
            "http.request.method": r.method.toUpperCase(),
            "http.route": r.path,
            "url.path": ctx.path,
            request_id: String(ctx.state.requestId ?? "")
          }
        })
      )
    : logged
}

/*
 * keptByScavenges: a request's generators are made once, at module level (api/http/access.ts) or
 * once per route (Route.ts's serveWith), with Effect.fnUntraced, not as a new `function*` per
 * request. V8 keeps a generator function that has made a generator (as it keeps a function used
 * with `new`; likely through the map it makes for its objects, which lives in the old generation)
 * past every young-generation collection until a full one, and with it all it captured: here the
 * Koa context and its 148 kB answer (bench:gc "Effect.gen made per read"; docs/BENCHMARKS.md).
 */
