import { Effect, type Schema } from "effect"
import type { ReadReplicasShape } from "../db/ReadReplicas.js"
import type { ApiServices } from "../runtime.js"
import type { Access, AdmissionRequest, Gate } from "./access.js"
import { decodePart, rawQuery } from "./decodeInput.js"
import { BadRequest } from "./HttpError.js"
import {
  queryNames,
  takesParameters,
  unknownParameterError,
  unknownParameters,
  unknownParameterWarning
} from "./unknownParameters.js"
import { warningsChannel, withUnknownParameters } from "./unknownParameterNotes.js"
import type { ResponseHeaders } from "./ResponseHeaders.js"

export type { ResponseHeaders }

/** One documented response of a route: its body schema (none for 204) and content type. */
export interface ResponseSpec {
  readonly description: string
  readonly schema?: Schema.Schema.Any
  /** default application/json */
  readonly contentType?: string
  readonly headers?: ReadonlyArray<"rateLimit" | "jurisdictionWarning" | "warnings" | "retryAfter">
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

/** What every route declares, whatever its access and Schemas: where it lives and how it is documented and served. */
interface RouteFacts {
  readonly method: "get" | "post" | "patch" | "delete"
  /** Koa path under /api/v1 ("/events/:id") */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly tag: string
  /** a plan flag the whole route needs (analytics, truck, webhooks) */
  readonly gate?: Gate
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
}

/**
 * An endpoint, written once: where it lives, who may call it (its access kind: `Public`, `Key`,
 * `Portal`, `Session`), the Schemas of its path, query and body, the Schemas of its answers, and
 * the handler. The handler and the Schemas may ask for what the access provides and nothing
 * more: a keyed route's for `RequestAuth`, a session route's for `PortalSession`.
 */
export interface RouteSpec<P, Q, B, Provided> extends RouteFacts {
  readonly access: Access<Provided>
  readonly params?: Schema.Schema<P, any, Provided>
  readonly query?: Schema.Schema<Q, any, Provided>
  readonly body?: Schema.Schema<B, any, never>
  readonly handler: (input: RouteInput<P, Q, B>) => Effect.Effect<unknown, unknown, ApiServices | Provided>
}

/** A request as a route reads it: path parameters, query and body as Koa parsed them. */
export interface RawRequest {
  readonly params: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly body: unknown
}

/**
 * A route as the edge serves it and the OpenAPI document describes it: its facts, its Schemas
 * for the document, and `run`, which admits a request by the route's access and serves it.
 */
export interface Route extends RouteFacts {
  readonly access: { readonly kind: Access<unknown>["kind"] }
  readonly params?: Schema.Schema.Any
  readonly query?: Schema.Schema.Any
  readonly body?: Schema.Schema.Any
  readonly run: (req: AdmissionRequest, raw: RawRequest) => Effect.Effect<unknown, unknown, ApiServices>
}

/**
 * Declares a route; the type parameters follow from its access and Schemas. Decoding (a 400
 * naming the parameter) and the handler run after admission, with what the access provides.
 */
export const route = <P = Record<never, never>, Q = Record<never, never>, B = undefined, Provided = never>(
  r: RouteSpec<P, Q, B, Provided>
): Route => {
  const serve = serveWith(r)
  return { ...r, run: (req, raw) => r.access.run(req, (headers) => serve(raw, headers, req.admission.replicas)) }
}

/**
 * Decodes a request's parts with the route's Schemas, then runs the handler (on a replica where
 * the route reads). A query parameter the route does not read is never dropped silently: it is
 * an `unknown_parameter` warning where the answer carries warnings, else a 400.
 */
const serveWith = <P, Q, B, Provided>(r: RouteSpec<P, Q, B, Provided>) => {
  const known = queryNames(r.query)
  const channel = warningsChannel(r.responses[200], takesParameters(known))
  return Effect.fnUntraced(function* (
    raw: RawRequest,
    headers: ResponseHeaders,
    replicas: ReadReplicasShape | undefined
  ) {
    const unknown = unknownParameters(raw.query, known)
    if (unknown.length > 0 && channel === "none")
      return yield* new BadRequest({ message: unknownParameterError(unknown) })
    const params = yield* decodePart(r.params, raw.params, "path", "ignore")
    const query = yield* Effect.flatMap(rawQuery(raw.query), (q) => decodePart(r.query, q, "query", "ignore"))
    const body = yield* decodePart(r.body, raw.body, "body", "error")
    if (unknown.length === 0) {
      const handled = r.handler({ params, query, body, headers })
      return yield* r.reads === "replica" && replicas ? replicas.onReplica(handled) : handled
    }
    const noted = withUnknownParameters(headers, unknown.map(unknownParameterWarning))
    const handled = r.handler({ params, query, body, headers: noted.headers })
    const answer = yield* r.reads === "replica" && replicas ? replicas.onReplica(handled) : handled
    return noted.finish(answer, channel)
  })
}
