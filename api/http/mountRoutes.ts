import type Router from "@koa/router"
import { Cause, Context, Effect, Exit } from "effect"
import type Koa from "koa"
import type { AuthContext } from "./AuthContext.js"
import { requestKey } from "../middleware/auth.js"
import { checkOrigin } from "../middleware/cors.js"
import { planGate } from "../middleware/planGate.js"
import { rateLimit } from "../middleware/rateLimit.js"
import type { ApiRuntime, ApiServices } from "../runtime.js"
import { decodePart, rawQuery } from "./decodeInput.js"
import { BrowserRequest, type BrowserRequestShape } from "../portal/BrowserRequest.js"
import { browserRequestOf } from "../portal/browserRequestOf.js"
import { checkCsrf } from "../portal/csrf.js"
import { PortalSession, type PortalSessionShape } from "../portal/PortalSession.js"
import { currentSession } from "../portal/sessions.js"
import { RequestAuth } from "./RequestAuth.js"
import { Reply, type ResponseHeaders, type Route } from "./Route.js"
import { CacheDependencies } from "../cache/dependsOn.js"
import type { ResponseCache } from "../cache/ResponseCache.js"
import type { ReadReplicasShape } from "../db/ReadReplicas.js"
import { type PreparedAnswer, prepareJson, writePrepared } from "./preparedAnswer.js"
import { cacheKeyOf, keepFor } from "../cache/cacheKey.js"
import { spanFrom, tracingOn } from "../../shared/observability/Tracing.js"

export interface Admission {
  /** key → caller, or a 401 / plan-state 403 */
  readonly authenticate: (key: string) => Effect.Effect<AuthContext, unknown, ApiServices>
  /** the portal's public address (PORTAL_URL, else this server's own) */
  readonly portalUrl: () => string
  /** this worker's shared answers; absent: every answer is computed per request */
  readonly cache?: SharedAnswers
  /** where a route that `reads: "replica"` runs its queries; absent: the primary */
  readonly replicas?: ReadReplicasShape
}

export type SharedAnswers = ResponseCache<Exit.Exit<PreparedAnswer, unknown>>

/** An answer already serialized (shared, or about to be judged against If-None-Match). */
class Prepared {
  constructor(readonly answer: PreparedAnswer) {}
}

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
const cacheControlOf = (r: Route) => r.cacheControl ?? (r.access === "key" ? "private, no-cache" : undefined)

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
    router[r.method](r.path, async (ctx) => {
      // recorded, then written: what a handler's closures hold is these few strings, not the
      // Koa context (and through it the answer; see keptByScavenges below)
      const recorded: Array<readonly [string, string]> = []
      const headers: ResponseHeaders = { set: (name, value) => void recorded.push([name, value]) }
      const exit = await rt.runExit(withRequestSpan(r, ctx, program(r, ctx, headers, admission, rt)))
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

/**
 * The callers a request's handler may ask for, provided as one context: each separate
 * `provideService` copies the fiber's references twice (set and restore), and on a cached answer
 * that bookkeeping was a tenth of the request's CPU.
 */
const callers = (
  auth: AuthContext | undefined,
  browser: BrowserRequestShape | undefined,
  session: PortalSessionShape | undefined
) =>
  Context.make(RequestAuth, auth as AuthContext).pipe(
    Context.add(BrowserRequest, browser as BrowserRequestShape),
    Context.add(PortalSession, session as PortalSessionShape)
  )

/**
 * A shareable answer computed once for every caller with the same question and plan view: the
 * handler runs with headers recorded (not written to one response) and its dependencies
 * collected; a 200 that declared dependencies may be kept.
 */
const computeShared = (
  r: Route,
  ctx: Koa.ParameterizedContext,
  auth: AuthContext,
  rt: ApiRuntime,
  replicas: ReadReplicasShape | undefined
) => {
  const recorded: Array<readonly [string, string]> = []
  const tags = new Set<string>()
  let declared = false
  const status = defaultStatus(r)
  const effect = serve(r, ctx, { set: (name, value) => recorded.push([name, value]) }, replicas).pipe(
    Effect.provide(
      callers(auth, undefined, undefined).pipe(
        Context.add(CacheDependencies, {
          add: (t) => {
            declared = true
            for (const x of t) tags.add(x)
          }
        })
      )
    ),
    Effect.map((value) => {
      const reply = value instanceof Reply ? value : new Reply(status, value)
      return prepareJson(
        reply.status,
        reply.body,
        reply.contentType ?? r.responses[reply.status]?.contentType ?? "application/json",
        recorded
      )
    })
  )
  return rt.runExit(tracingOn ? Effect.withTracerEnabled(effect, false) : effect).then((exit) => ({
    value: exit,
    keep:
      Exit.isSuccess(exit) && exit.value.status === 200 && declared
        ? { tags: [...tags], ttlMs: keepFor(auth.plan), bytes: exit.value.body.length + 512 }
        : null
  }))
}

/*
 * keptByScavenges: a request's generators are made once, here at module level (Effect.fnUntraced),
 * not as a new `function*` per request. V8 keeps a generator function that has made a generator
 * (as it keeps a function used with `new`; likely through the map it makes for its objects, which
 * lives in the old generation) past every young-generation collection until a full one, and with
 * it all it captured: here the Koa context and its 148 kB answer (bench:gc "Effect.gen made per
 * read"; docs/BENCHMARKS.md).
 */
const serve = Effect.fnUntraced(function* (
  r: Route,
  ctx: Koa.ParameterizedContext,
  headers: ResponseHeaders,
  replicas: ReadReplicasShape | undefined
) {
  const params = yield* decodePart(r.params, ctx.params ?? {}, "path", "ignore")
  const query = yield* Effect.flatMap(rawQuery(ctx.query), (q) => decodePart(r.query, q, "query", "ignore"))
  const body = yield* decodePart(r.body, (ctx.request as { body?: unknown }).body, "body", "error")
  const handled = r.handler({ params, query, body, headers })
  return yield* r.reads === "replica" && replicas ? replicas.onReplica(handled) : handled
})

const program = Effect.fnUntraced(function* (
  r: Route,
  ctx: Koa.ParameterizedContext,
  headers: ResponseHeaders,
  admission: Admission,
  rt: ApiRuntime
) {
  // each kind of route gets the callers it knows; the others are absent by construction
  const provide = (
    auth: AuthContext | undefined,
    browser: BrowserRequestShape | undefined,
    session: PortalSessionShape | undefined
  ) => Effect.provide(serve(r, ctx, headers, admission.replicas), callers(auth, browser, session))
  const origin = ctx.get("origin")
  if (r.access === "portal" || r.access === "session") {
    const browser = browserRequestOf(ctx as Koa.Context, admission.portalUrl())
    // the portal is same-origin only: no CORS headers; every state-changing call proves it came from the portal's page
    if (r.method !== "get") yield* Effect.provideService(checkCsrf, BrowserRequest, browser)
    const session =
      r.access === "session" ? yield* Effect.provideService(currentSession, BrowserRequest, browser) : undefined
    if (r.gate && session && !r.gate.allowed(session.plan))
      return yield* planGate({ plan: session.plan, portalUrl: browser.portalUrl }, r.gate.code, r.gate.message)
    return yield* provide(undefined, browser, session)
  }
  if (r.access === "public") {
    if (origin) headers.set("Access-Control-Allow-Origin", "*")
    return yield* provide(undefined, undefined, undefined)
  }
  const auth = yield* admission.authenticate(requestKey(ctx.get("x-api-key"), ctx.query.api_key))
  yield* checkOrigin(origin, auth, headers)
  yield* rateLimit(auth, headers)
  if (r.gate && !r.gate.allowed(auth.plan)) return yield* planGate(auth, r.gate.code, r.gate.message)
  const cache = admission.cache
  if (r.shared && cache && r.method === "get") {
    const key = cacheKeyOf(r.operationId, ctx.params ?? {}, ctx.querystring, auth)
    const { value, outcome } = yield* Effect.promise(() =>
      cache.answer(key, () => computeShared(r, ctx, auth, rt, admission.replicas))
    )
    headers.set("X-Cache", outcome.toUpperCase())
    return new Prepared(yield* value)
  }
  return yield* provide(auth, undefined, undefined)
})
