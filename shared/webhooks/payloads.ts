import { createHash } from "node:crypto"
import type { EventChange } from "../domain/Change.js"
import { publishedFlags } from "../domain/qualityFlags.js"

/** Webhook event names (SPEC §6). */
export type WebhookEventName =
  "event.created" | "event.severity_change" | "event.status_change" | "event.archived" | "route.warning" | "test"

/** One immediate payload, and one item of a batch: `{event, timestamp, data}`. */
export interface WebhookItem {
  readonly event: WebhookEventName
  readonly timestamp: string
  readonly data: {
    readonly event_id: string
    readonly jurisdiction: string
    readonly type: string
    readonly sub_type: string | null
    readonly cause: string | null
    readonly severity: string
    readonly road_name: string | null
    /** as on the event (docs/api/events.md#quality-flags), judged at the change's time; empty on an archive */
    readonly quality_flags: ReadonlyArray<string>
    readonly changes?: { readonly old_severity: string | null; readonly new_severity: string | null }
  }
}

/**
 * The webhook events one change fires: created; a severity change (with `changes`); a status
 * flip; an archive fires event.status_change (active → archived) and event.archived. Other
 * content changes (lanes, end time, text) fire nothing.
 */
export const webhookItems = (c: EventChange): Array<WebhookItem> => {
  const base = {
    event_id: c.event_id,
    jurisdiction: c.keys.jurisdiction,
    type: c.keys.type,
    sub_type: c.keys.sub_type,
    cause: c.keys.cause,
    severity: c.keys.severity,
    road_name: c.keys.road_name,
    quality_flags: c.event
      ? publishedFlags(c.event.quality_flags, { ...c.event, status: "active" }, Date.parse(c.at))
      : []
  }
  const item = (event: WebhookEventName, extra: Partial<WebhookItem["data"]> = {}): WebhookItem => ({
    event,
    timestamp: c.at,
    data: { ...base, ...extra }
  })
  if (c.op === "archived") return [item("event.status_change"), item("event.archived")]
  const out: Array<WebhookItem> = []
  for (const f of c.fields) {
    if (f.change_type === "created") out.push(item("event.created"))
    else if (f.change_type === "severity_change")
      out.push(item("event.severity_change", { changes: { old_severity: f.old_value, new_severity: f.new_value } }))
    else if (f.change_type === "status_change") out.push(item("event.status_change"))
  }
  return out
}

/**
 * A new critical warning on a monitored route (docs/api/webhooks.md#route-warning): the route,
 * the caller's correlation key, and the warning as the saved route answers it.
 */
export interface RouteWarningItem {
  readonly event: "route.warning"
  readonly timestamp: string
  readonly data: { readonly route_id: string; readonly customer_route_id: string | null; readonly warning: unknown }
}

export const routeWarningItem = (
  at: string,
  routeId: string,
  customerRouteId: string | null,
  warning: unknown
): RouteWarningItem => ({
  event: "route.warning",
  timestamp: at,
  data: { route_id: routeId, customer_route_id: customerRouteId, warning }
})

/**
 * Stable per (subscription, change, event): a re-read stream message makes the same delivery, and receivers dedupe on
 * it.
 */
export const deliveryId = (subscriptionId: string, changeId: string, event: string) =>
  "whd_" + createHash("sha256").update(`${subscriptionId}|${changeId}|${event}`).digest("base64url").slice(0, 22)

/** At most this many events per batched POST (SPEC §8). */
export const BATCH_MAX_EVENTS = 100

export const batchBody = (
  windowSeconds: number,
  startedAt: string,
  endedAt: string,
  events: ReadonlyArray<WebhookItem | RouteWarningItem>
) =>
  JSON.stringify({
    batch: { window_seconds: windowSeconds, started_at: startedAt, ended_at: endedAt, event_count: events.length },
    events
  })

/** The portal-style test delivery: sent at once, never recorded. */
export const testItem = (at: string): WebhookItem => ({
  event: "test",
  timestamp: at,
  data: {
    event_id: "ev_test",
    jurisdiction: "TEST",
    type: "incident",
    sub_type: null,
    cause: null,
    severity: "minor",
    road_name: null,
    quality_flags: []
  }
})
