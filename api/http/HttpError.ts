import { Data } from "effect"
import { storeUnavailable, UNAVAILABLE_RETRY_S } from "./unavailable.js"

/**
 * The API's own failures, as tagged errors. Routes and middleware fail with these (or with a
 * domain error `httpAnswer` knows); `httpAnswer` is the one place they become HTTP answers in
 * the SPEC §2.7 shape: `error` and `docs_url` always, plan gates with their extra fields.
 */
export class BadRequest extends Data.TaggedError("BadRequest")<{ readonly message: string }> {}

export class Unauthorized extends Data.TaggedError("Unauthorized")<{
  readonly message: string
  readonly headers?: Readonly<Record<string, string>>
}> {}

/** A 403 that is not a plan gate (a browser origin the key does not allow). */
export class Forbidden extends Data.TaggedError("Forbidden")<{ readonly message: string; readonly docsUrl: string }> {}

export class NotFound extends Data.TaggedError("NotFound")<{ readonly message: string; readonly docsUrl?: string }> {}

export class PayloadTooLarge extends Data.TaggedError("PayloadTooLarge")<{ readonly maxBytes: number }> {
  override get message() {
    return `request body too large (at most ${this.maxBytes} bytes)`
  }
}

export class RateLimited extends Data.TaggedError("RateLimited")<{
  readonly message: string
  readonly retryAfterS: number
}> {}

export const PLAN_GATE_CODES = [
  "plan_jurisdiction",
  "plan_batch_size",
  "plan_event_time_range",
  "plan_event_status",
  "plan_archived_event",
  "plan_inactive_features",
  "plan_geojson",
  "plan_analytics",
  "plan_truck",
  "plan_webhooks",
  "trial_expired",
  "subscription_expired",
  "routing_quota_exhausted",
  "routing_daily_cap",
  "saved_route_slots_full"
] as const
export type PlanGateCode = (typeof PLAN_GATE_CODES)[number]

export class PlanGate extends Data.TaggedError("PlanGate")<{
  readonly message: string
  readonly code: PlanGateCode
  readonly plan: string
  readonly planName: string
  readonly upgradeUrl?: string | undefined
}> {}

export interface HttpAnswer {
  readonly status: number
  readonly body: Record<string, unknown>
  readonly headers: Readonly<Record<string, string>>
}

const answer = (
  status: number,
  error: string,
  docsUrl: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {}
): HttpAnswer => ({ status, body: { error, docs_url: docsUrl, ...extra }, headers })

/** Domain errors that reach the edge unchanged: their tag and the answer they get. */
const DOMAIN: Readonly<Record<string, { status: number; docsUrl: string }>> = {
  WebhookInputError: { status: 400, docsUrl: "/docs/webhooks" },
  WebhookNotFound: { status: 404, docsUrl: "/docs/webhooks" },
  RouteNotFound: { status: 422, docsUrl: "/docs/routing" },
  RoutingInputError: { status: 400, docsUrl: "/docs/errors#400" },
  TruckProfileNotFound: { status: 404, docsUrl: "/docs/routing#truck-profiles" },
  EngineUnavailable: { status: 503, docsUrl: "/docs/routing" }
}

/** A known failure's answer, or null for anything else (a defect: the caller answers 500). */
export const httpAnswer = (e: unknown): HttpAnswer | null => {
  if (storeUnavailable(e)) {
    return answer(
      503,
      "the service cannot reach its data store just now; retry after the number of seconds in Retry-After",
      "/docs/errors#503",
      {},
      { "Retry-After": String(UNAVAILABLE_RETRY_S) }
    )
  }
  if (typeof e !== "object" || e === null || !("_tag" in e)) return null
  const err = e as { _tag: string; message: string }
  switch (err._tag) {
    case "BadRequest":
      return answer(400, err.message, "/docs/errors#400")
    case "Unauthorized":
      return answer(401, err.message, "/docs/authentication", {}, (e as Unauthorized).headers ?? {})
    case "Forbidden":
      return answer(403, err.message, (e as Forbidden).docsUrl)
    case "NotFound":
      return answer(404, err.message, (e as NotFound).docsUrl ?? "/docs/errors#404")
    case "PayloadTooLarge":
      return answer(413, err.message, "/docs/errors#413")
    case "RateLimited":
      return answer(429, err.message, "/docs/limits", {}, { "Retry-After": String((e as RateLimited).retryAfterS) })
    case "PlanGate": {
      const g = e as PlanGate
      return answer(403, g.message, `/docs/plans#${g.code}`, {
        code: g.code,
        plan: g.plan,
        plan_name: g.planName,
        ...(g.upgradeUrl ? { upgrade_url: g.upgradeUrl } : {})
      })
    }
  }
  const domain = DOMAIN[err._tag]
  return domain ? answer(domain.status, err.message, domain.docsUrl) : null
}

/** Statuses Koa or its body parser produce without a body of ours: their uniform answer. */
export const statusAnswer = (status: number, method: string, path: string, allow?: string): HttpAnswer => {
  switch (status) {
    case 404:
      return answer(404, `no such endpoint: ${method} ${path.slice(0, 200)}`, "/docs/api")
    case 405:
      return answer(
        405,
        `${method} is not allowed on ${path.slice(0, 200)}; allowed: ${allow ?? ""}`,
        "/docs/errors#405",
        {},
        allow ? { Allow: allow } : {}
      )
    case 413:
      return answer(413, "request body too large", "/docs/errors#413")
    case 415:
      return answer(415, "send the body as application/json", "/docs/errors#400")
    case 501:
      return answer(501, `${method} is not implemented by this API`, "/docs/errors#405")
    default:
      return status >= 500
        ? answer(status, "internal server error; retry, and quote the request id if it persists", "/docs/errors#500")
        : answer(
            status,
            status === 400 ? "malformed request body: send valid JSON" : "the request could not be read",
            `/docs/errors#${status === 400 ? 400 : "4xx"}`
          )
  }
}
