import { Context, Effect } from "effect"
import type Koa from "koa"
import { cacheKeyOf } from "../cache/cacheKey.js"
import type { ReadReplicasShape } from "../db/ReadReplicas.js"
import { requestKey } from "../middleware/auth.js"
import { checkOrigin } from "../middleware/cors.js"
import { planGate } from "../middleware/planGate.js"
import { rateLimit } from "../middleware/rateLimit.js"
import { BrowserRequest } from "../portal/BrowserRequest.js"
import { browserRequestOf } from "../portal/browserRequestOf.js"
import { checkCsrf } from "../portal/csrf.js"
import { PortalSession } from "../portal/PortalSession.js"
import { currentSession, SESSION_COOKIE } from "../portal/sessions.js"
import type { ApiRuntime, ApiServices } from "../runtime.js"
import type { AuthContext, Plan } from "./AuthContext.js"
import type { PlanGateCode } from "./HttpError.js"
import type { PreparedAnswer } from "./preparedAnswer.js"
import { RequestAuth } from "./RequestAuth.js"
import type { ResponseHeaders } from "./ResponseHeaders.js"
import { computeShared, Prepared, type SharedAnswers } from "./sharedAnswer.js"

/** What the edge is given once, for every request it admits. */
export interface Admission {
  /** key → caller, or a 401 / plan-state 403; `session`: a logged-in portal browser's customer → caller */
  readonly authenticate: {
    readonly key: (key: string) => Effect.Effect<AuthContext, unknown, ApiServices>
    readonly session: (customerId: number) => Effect.Effect<AuthContext, unknown, ApiServices>
  }
  /** the portal's public address (PORTAL_URL, else this server's own) */
  readonly portalUrl: () => string
  /** this worker's shared answers; absent: every answer is computed per request */
  readonly cache?: SharedAnswers
  /** where a route that `reads: "replica"` runs its queries; absent: the primary */
  readonly replicas?: ReadReplicasShape
}

/** A plan flag a whole route needs (analytics, truck, webhooks). */
export interface Gate {
  readonly allowed: (plan: Plan) => boolean
  readonly code: PlanGateCode
  readonly message: string
}

/** One request as admission sees it. */
export interface AdmissionRequest {
  readonly ctx: Koa.ParameterizedContext
  readonly method: string
  readonly gate: Gate | undefined
  /** the route's answer may be shared by callers with the same question and plan view */
  readonly shared: boolean
  readonly operationId: string
  readonly headers: ResponseHeaders
  readonly admission: Admission
  readonly rt: ApiRuntime
  /** the handler's answer serialized as the route documents it, for a shared answer */
  readonly prepare: (value: unknown, recorded: ReadonlyArray<readonly [string, string]>) => PreparedAnswer
}

/**
 * A kind of access, as a value: it admits a request (or fails: 401, 403, 429, a CSRF refusal)
 * and runs the route's `serve` with what this kind provides its handler (`Provided`), and
 * nothing else. A route is typed by its access, so only a session route's handler can ask for
 * the portal session, only a keyed route's for the API key's caller.
 */
export interface Access<Provided> {
  readonly kind: "public" | "key" | "portal" | "session"
  readonly run: (req: AdmissionRequest, serve: Serve<Provided>) => Effect.Effect<unknown, unknown, ApiServices>
}

/** A route's decoding and handler, given the headers to record its own into. */
export type Serve<Provided> = (headers: ResponseHeaders) => Effect.Effect<unknown, unknown, ApiServices | Provided>

/*
 * The generators below are made once, at module level (Effect.fnUntraced), not per request: a
 * generator function made per call keeps what it captured (the Koa context, the answer) past
 * young collections (keptByScavenges in mountRoutes.ts).
 */

/** Anyone: no key, no session; CORS open. */
export const Public: Access<never> = {
  kind: "public",
  run: (req, serve) => {
    if (req.ctx.get("origin")) req.headers.set("Access-Control-Allow-Origin", "*")
    return serve(req.headers)
  }
}

/**
 * An API key: the caller authenticated, its origin allowed, counted against its limits, the
 * route's plan flag checked; a shared route's answer comes from the worker's shared answers.
 */
const runKeyed = Effect.fnUntraced(function* (req: AdmissionRequest, serve: Serve<RequestAuth>) {
  const { ctx, headers, admission } = req
  const key = requestKey(ctx.get("x-api-key"), ctx.query.api_key)
  // no key but the portal's session cookie: the portal's own pages calling as the logged-in customer
  const viaSession = key === "" && Boolean(ctx.cookies.get(SESSION_COOKIE))
  const auth = viaSession ? yield* sessionCaller(req) : yield* admission.authenticate.key(key)
  if (!viaSession) yield* checkOrigin(ctx.get("origin"), auth, headers)
  yield* rateLimit(auth, headers)
  if (req.gate && !req.gate.allowed(auth.plan)) return yield* planGate(auth, req.gate.code, req.gate.message)
  const cache = admission.cache
  if (req.shared && cache && req.method === "get") {
    const key = cacheKeyOf(req.operationId, ctx.params ?? {}, ctx.querystring, auth)
    const { value, outcome } = yield* Effect.promise(() =>
      cache.answer(key, () => computeShared(serve, req.prepare, auth, req.rt))
    )
    headers.set("X-Cache", outcome.toUpperCase())
    return new Prepared(yield* value)
  }
  return yield* Effect.provide(serve(headers), Context.make(RequestAuth, auth))
})

export const Key: Access<RequestAuth> = { kind: "key", run: runKeyed }

/**
 * A keyed route called by the portal's page with the session: same origin only (no CORS), a
 * change proves it came from the portal's page (CSRF), counted under the account's portal
 * credential, never one of the customer's keys.
 */
const sessionCaller = Effect.fnUntraced(function* (req: AdmissionRequest) {
  const browser = yield* browserOf(req)
  const session = yield* Effect.provideService(currentSession, BrowserRequest, browser)
  return yield* req.admission.authenticate.session(session.customerId)
})

/** A browser on the portal (same origin only, no CORS); a state-changing call proves it came from the portal's page. */
const browserOf = Effect.fnUntraced(function* (req: AdmissionRequest) {
  const browser = browserRequestOf(req.ctx as Koa.Context, req.admission.portalUrl())
  if (req.method !== "get") yield* Effect.provideService(checkCsrf, BrowserRequest, browser)
  return browser
})

/** The portal's pages before sign-in (sign-up, log-in, verification): the browser's request. */
export const Portal: Access<BrowserRequest> = {
  kind: "portal",
  run: (req, serve) =>
    Effect.flatMap(browserOf(req), (browser) =>
      Effect.provide(serve(req.headers), Context.make(BrowserRequest, browser))
    )
}

/** The portal, logged in: the browser's request and the customer's session; the route's plan flag checked. */
const runSession = Effect.fnUntraced(function* (req: AdmissionRequest, serve: Serve<BrowserRequest | PortalSession>) {
  const browser = yield* browserOf(req)
  const session = yield* Effect.provideService(currentSession, BrowserRequest, browser)
  if (req.gate && !req.gate.allowed(session.plan))
    return yield* planGate({ plan: session.plan, portalUrl: browser.portalUrl }, req.gate.code, req.gate.message)
  return yield* Effect.provide(
    serve(req.headers),
    Context.make(BrowserRequest, browser).pipe(Context.add(PortalSession, session))
  )
})

export const Session: Access<BrowserRequest | PortalSession> = { kind: "session", run: runSession }
