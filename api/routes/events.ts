import Router from "@koa/router"
import { EVENT_STATUSES, EVENT_TYPES, SEVERITIES } from "../../shared/domain/Event.js"
import { nowMillis } from "../../shared/time/Now.js"
import { cursorSecret } from "../cursor.js"
import { requireGeoJson, sendFeatureCollection } from "../geojson.js"
import { jurisdictionFilter } from "../jurisdictionFilter.js"
import type { AuthContext } from "../middleware/auth.js"
import { ApiError, badRequest } from "../middleware/errors.js"
import { planGate } from "../middleware/planGate.js"
import { pagedEnvelope, readPage, withoutSeq } from "../paging.js"
import { bbox, circle, instant, list, str } from "../params.js"
import { listExtras } from "../listExtras.js"
import { cachedReference } from "../queries/Reference.js"
import { type EventFilters, eventsByIds, getEvent, listEvents } from "../queries/EventsQuery.js"
import type { ApiRuntime } from "../runtime.js"
import { type ApiWarning, unknownValue } from "../warnings.js"

type Query = Record<string, string | string[] | undefined>

const enumFilter = (q: Query, name: string, allowed: ReadonlyArray<string>, code: string, warnings: Array<ApiWarning>) => {
  const values = list(q, name)?.map((v) => v.toLowerCase())
  for (const v of values ?? []) if (!allowed.includes(v)) warnings.push(unknownValue(code, name, v, allowed))
  return values
}


/** SPEC §7 gates on which events a plan may see: other statuses, and how far back. */
const eventPlanGates = (auth: AuthContext, nowMs: number, statuses: ReadonlyArray<string>, updatedAfter?: string, updatedBefore?: string) => {
  const plan = auth.plan
  if (!plan.allow_archived_events && statuses.some((s) => s !== "active")) {
    throw planGate(auth, "plan_event_status", `your plan lists active events only (asked for status ${statuses.join(",")})`)
  }
  if (plan.event_history_days !== null) {
    const earliest = nowMs - plan.event_history_days * 86_400_000
    for (const [name, at] of [["updated_after", updatedAfter], ["updated_before", updatedBefore]] as const) {
      if (at !== undefined && Date.parse(at) < earliest) {
        throw planGate(auth, "plan_event_time_range", `${name} reaches back further than your plan's ${plan.event_history_days}-day history`)
      }
    }
  }
}

export const eventsRouter = (rt: ApiRuntime) => {
  const router = new Router()
  const reference = cachedReference()

  /** One /events query (ids, or filters and a page): the envelope and its warnings. */
  const query = async (ctx: Router.RouterContext) => {
    const auth = ctx.state.auth as AuthContext
    const q = ctx.query as Query
    const ids = list(q, "ids", 10_000)
    if (ids) {
      if (ids.length > auth.plan.max_batch_size) {
        throw planGate(auth, "plan_batch_size", `ids lists ${ids.length} events; your plan allows ${auth.plan.max_batch_size} per request`)
      }
      const rows = await rt.run(eventsByIds(ids))
      if (!auth.plan.allow_archived_events && rows.some((r) => r.status !== "active")) {
        throw planGate(auth, "plan_archived_event", "ids names an ended event; your plan shows active events only")
      }
      return { envelope: { data: rows.map(withoutSeq), total: rows.length, limit: rows.length, offset: 0, has_more: false }, warnings: [] }
    }
    const warnings: Array<ApiWarning> = []
    const ref = await rt.run(reference)
    const statuses = enumFilter(q, "status", EVENT_STATUSES, "unknown_status", warnings) ?? ["active"]
    const updatedAfter = instant(q, "updated_after")
    const updatedBefore = instant(q, "updated_before")
    eventPlanGates(auth, await rt.run(nowMillis), statuses, updatedAfter, updatedBefore)
    const filters: EventFilters = {
      jurisdictions: jurisdictionFilter(q, ref, auth, warnings),
      types: enumFilter(q, "type", EVENT_TYPES, "unknown_type", warnings),
      subTypes: list(q, "sub_type"),
      causes: list(q, "cause"),
      severities: enumFilter(q, "severity", SEVERITIES, "unknown_severity", warnings),
      statuses,
      road: str(q, "road"),
      circle: circle(q, 20_000),
      bbox: bbox(q),
      updatedAfter,
      updatedBefore,
      delaySec: auth.plan.data_delay_sec,
      historyDays: auth.plan.event_history_days ?? undefined
    }
    const secret = await rt.run(cursorSecret)
    const page = readPage(q, auth, secret, filters)
    const result = await rt.run(listEvents(filters, page))
    const types = filters.types?.length === 1 ? filters.types : undefined
    const attribution = await listExtras(rt, ctx, { kind: "event", q, ref, types, rows: result.rows, total: result.total, warnings })
    return { envelope: pagedEnvelope(secret, page, result, [], attribution), warnings }
  }

  router.get("/events", async (ctx) => {
    const { envelope, warnings } = await query(ctx)
    ctx.body = { ...envelope, ...(warnings.length > 0 ? { warnings } : {}) }
  })

  router.get("/events/geojson", async (ctx) => {
    requireGeoJson(ctx)
    const { envelope, warnings } = await query(ctx)
    sendFeatureCollection(ctx, envelope, warnings, (e) => ({
      type: "Feature",
      id: e.id,
      geometry: { type: "Point", coordinates: [e.longitude, e.latitude] },
      properties: {
        id: e.id, source: e.source, jurisdiction: e.jurisdiction, type: e.type, severity: e.severity, status: e.status,
        title: e.title, affected_roads: e.affected_roads, direction: e.direction, start_time: e.start_time
      }
    }))
  })

  router.get("/events/:id", async (ctx) => {
    const id = ctx.params.id
    if (id.length > 200) throw badRequest("id is too long")
    const row = await rt.run(getEvent(id))
    if (!row) throw new ApiError(404, `no event with id ${id}`, { docs_url: "/docs/api#events" })
    const auth = ctx.state.auth as AuthContext
    if (!auth.plan.allow_archived_events && row.status !== "active") {
      throw planGate(auth, "plan_archived_event", `event ${id} has ended; your plan shows active events only`)
    }
    ctx.body = row
  })

  return router
}
