import type { Effect, Schema } from "effect"
import type { Plan } from "./AuthContext.js"
import type { BrowserRequest } from "../portal/BrowserRequest.js"
import type { PortalSession } from "../portal/PortalSession.js"
import type { ApiServices } from "../runtime.js"
import type { PlanGateCode } from "./HttpError.js"
import type { RequestAuth } from "./RequestAuth.js"

/** One documented response of a route: its body schema (none for 204) and content type. */
export interface ResponseSpec {
  readonly description: string
  readonly schema?: Schema.Schema.Any
  /** default application/json */
  readonly contentType?: string
  readonly headers?: ReadonlyArray<"rateLimit" | "jurisdictionWarning" | "warnings" | "retryAfter">
}

/** Headers a handler adds to its answer (warnings, caching). */
export interface ResponseHeaders {
  readonly set: (name: string, value: string) => void
}

export interface RouteInput<P, Q, B> {
  readonly params: P
  readonly query: Q
  readonly body: B
  readonly headers: ResponseHeaders
}

/** A non-default status (or content type) for one answer. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly contentType?: string
  ) {}
}

/**
 * An endpoint, written once: where it lives, who may call it, the Schemas of its path, query
 * and body, the Schemas of its answers, and the handler. The bridge (`mountRoutes`) serves it;
 * `openApiDocument` describes it from the same Schemas.
 */
export interface Route<P = unknown, Q = unknown, B = unknown> {
  readonly method: "get" | "post" | "patch" | "delete"
  /** Koa path under /api/v1 ("/events/:id") */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly tag: string
  /**
   * public: anyone; key: an API key; portal: a browser on the portal (CSRF checked on every
   * state-changing call); session: the same, logged in (the customer is `PortalSession`)
   */
  readonly access: "public" | "key" | "portal" | "session"
  /** a plan flag the whole route needs (analytics, truck, webhooks) */
  readonly gate?: { readonly allowed: (plan: Plan) => boolean; readonly code: PlanGateCode; readonly message: string }
  readonly params?: Schema.Schema<P, any, RequestAuth>
  readonly query?: Schema.Schema<Q, any, RequestAuth>
  readonly body?: Schema.Schema<B, any, never>
  readonly responses: Readonly<Record<number, ResponseSpec>>
  readonly cacheControl?: string
  /**
   * GET answers may be shared by every caller with the same question and plan view, kept until
   * a change the handler declared (`dependsOn`) moves (api/cache)
   */
  readonly shared?: boolean
  /**
   * replica: a read of pipeline data that may run on a Postgres streaming replica
   * (DATABASE_READ_URL). Anything that must see the caller's own writes (keys, accounts, saved
   * routes, truck profiles, webhooks) leaves it unset and reads the primary.
   */
  readonly reads?: "replica"
  /** served but not described (a catch-all that only answers errors) */
  readonly hidden?: boolean
  readonly handler: (
    input: RouteInput<P, Q, B>
  ) => Effect.Effect<unknown, unknown, ApiServices | RequestAuth | BrowserRequest | PortalSession>
}

/** Declares a route; the type parameters follow from its Schemas. */
export const route = <P = Record<never, never>, Q = Record<never, never>, B = undefined>(r: Route<P, Q, B>): Route =>
  r as unknown as Route
