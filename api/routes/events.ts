import { QUALITY_FLAGS } from "../../shared/domain/qualityFlags.js"
import { Effect, Schema } from "effect"
import { CAUSES } from "../../shared/domain/Cause.js"
import { EVENT_STATUSES, EVENT_TYPES, SEVERITIES } from "../../shared/domain/Event.js"
import { nowMillis } from "../../shared/time/Now.js"
import { anyTag, dependencyTags } from "../../shared/cache/invalidation.js"
import { dependsOn } from "../cache/dependsOn.js"
import { cached } from "../cached.js"
import { featureCollection, requireGeoJson } from "../geojson.js"
import { NotFound } from "../http/HttpError.js"
import { BboxParam, Bool, circleFields, circleOf, Id, Instant, List, Text } from "../http/QueryParams.js"
import { RequestAuth } from "../http/RequestAuth.js"
import { type ResponseHeaders, route } from "../http/Route.js"
import { JurisdictionParam, jurisdictionFilter } from "../jurisdictionFilter.js"
import { listExtras } from "../listExtras.js"
import type { AuthContext } from "../http/AuthContext.js"
import { planGate } from "../middleware/planGate.js"
import { pagedEnvelope, pageFields, pageOf, withoutSeq } from "../paging.js"
import { withLinks } from "../queries/EventLinks.js"
import { type EventFilters, eventsByIds, getEvent, knownSubTypes, listEvents } from "../queries/EventsQuery.js"
import { reference } from "../queries/Reference.js"
import { EventCollection, EventDetail, EventPage } from "../schemas/events.js"
import { type ApiWarning, dataDelayWarning, unknownValue, vocabularyFilter } from "../warnings.js"
import { Key } from "../http/access.js"

export const EventQuery = Schema.Struct({
  ids: Schema.optional(
    List("Comma-separated event ids; when present every other filter is ignored and every status is returned", 10_000)
  ),
  jurisdiction: JurisdictionParam,
  type: Schema.optional(List(`${EVENT_TYPES.join(", ")}`)),
  sub_type: Schema.optional(List("Upstream subtype, case-insensitive")),
  cause: Schema.optional(List(`${CAUSES.join(", ")}; matches across types`)),
  severity: Schema.optional(List(`${SEVERITIES.join(", ")}`)),
  status: Schema.optional(List(`Default active; ${EVENT_STATUSES.join(", ")}`)),
  road: Schema.optional(Text("Case-insensitive substring of an affected road", 200)),
  ...circleFields(20_000),
  bbox: Schema.optional(BboxParam),
  updated_after: Schema.optional(Instant("last_updated at or after")),
  updated_before: Schema.optional(Instant("last_updated before")),
  exclude_flags: Schema.optional(
    List(
      `Leave out events carrying any of these quality flags: ${QUALITY_FLAGS.join(", ")}. For events the agency's own times say are on now: end_time_passed,end_before_start,not_scheduled`
    )
  ),
  dedupe: Schema.optional(
    Bool(
      "One report per real-world event: a report another source's linked report stands for is left out, and each item lists also_reported_by[]; default false"
    )
  ),
  ...pageFields()
})
type EventQuery = typeof EventQuery.Type

/** SPEC §7 gates on which events a plan may see: other statuses, and how far back. */
const eventPlanGates = (auth: AuthContext, nowMs: number, statuses: ReadonlyArray<string>, q: EventQuery) => {
  const plan = auth.plan
  if (!plan.allow_archived_events && statuses.some((s) => s !== "active")) {
    return Effect.fail(
      planGate(auth, "plan_event_status", `your plan lists active events only (asked for status ${statuses.join(",")})`)
    )
  }
  if (plan.event_history_days !== null) {
    const earliest = nowMs - plan.event_history_days * 86_400_000
    for (const [name, at] of [
      ["updated_after", q.updated_after],
      ["updated_before", q.updated_before]
    ] as const) {
      if (at !== undefined && Date.parse(at) < earliest) {
        return Effect.fail(
          planGate(
            auth,
            "plan_event_time_range",
            `${name} reaches back further than your plan's ${plan.event_history_days}-day history`
          )
        )
      }
    }
  }
  return Effect.void
}

const subTypes = cached(300_000, knownSubTypes)

/** Events named by `ids`: any status, within the plan's batch size. */
const byIds = (ids: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const auth = yield* RequestAuth
    if (ids.length > auth.plan.max_batch_size) {
      return yield* Effect.fail(
        planGate(
          auth,
          "plan_batch_size",
          `ids lists ${ids.length} events; your plan allows ${auth.plan.max_batch_size} per request`
        )
      )
    }
    yield* dependsOn([anyTag("event")])
    const found = yield* eventsByIds(ids)
    if (!auth.plan.allow_archived_events && found.some((r) => r.status !== "active")) {
      return yield* Effect.fail(
        planGate(auth, "plan_archived_event", "ids names an ended event; your plan shows active events only")
      )
    }
    const rows = yield* withLinks(found, false)
    return {
      envelope: { data: rows.map(withoutSeq), total: rows.length, limit: rows.length, offset: 0, has_more: false },
      warnings: [] as Array<ApiWarning>
    }
  })

/** The filters of an /events question as the plan lets the caller see it; shared with the map's cells. */
export const readEventFilters = (
  q: Omit<EventQuery, "ids" | "limit" | "offset" | "cursor">,
  warnings: Array<ApiWarning>
) =>
  Effect.gen(function* () {
    const auth = yield* RequestAuth
    const ref = yield* reference
    const statuses = vocabularyFilter(q.status, "status", EVENT_STATUSES, "unknown_status", warnings) ?? ["active"]
    yield* eventPlanGates(auth, yield* nowMillis, statuses, q)
    const subTypeValues = q.sub_type?.map((s) => s.toLowerCase())
    if (subTypeValues) {
      const known = yield* subTypes
      for (const v of subTypeValues)
        if (!known.includes(v)) warnings.push(unknownValue("unknown_sub_type", "sub_type", v, known))
    }
    const filters: EventFilters = {
      jurisdictions: yield* jurisdictionFilter(q.jurisdiction, ref, warnings),
      types: vocabularyFilter(q.type, "type", EVENT_TYPES, "unknown_type", warnings),
      subTypes: subTypeValues && subTypeValues.length > 0 ? subTypeValues : undefined,
      causes: vocabularyFilter(q.cause, "cause", CAUSES, "unknown_cause", warnings),
      severities: vocabularyFilter(q.severity, "severity", SEVERITIES, "unknown_severity", warnings),
      statuses,
      road: q.road,
      circle: yield* circleOf(q),
      bbox: q.bbox,
      updatedAfter: q.updated_after,
      updatedBefore: q.updated_before,
      delaySec: auth.plan.data_delay_sec,
      historyDays: auth.plan.event_history_days ?? undefined,
      ...(q.dedupe ? { dedupe: true } : {}),
      excludeFlags: vocabularyFilter(q.exclude_flags, "exclude_flags", QUALITY_FLAGS, "unknown_quality_flag", warnings)
    }
    return { filters, ref }
  })

/** One /events query (ids, or filters and a page): the envelope and its warnings. */
const eventQuery = (q: EventQuery, headers: ResponseHeaders) =>
  Effect.gen(function* () {
    if (q.ids && q.ids.length > 0) return yield* byIds(q.ids)
    const auth = yield* RequestAuth
    const warnings: Array<ApiWarning> = []
    const { filters, ref } = yield* readEventFilters(q, warnings)
    yield* dependsOn(dependencyTags("event", filters.jurisdictions))
    const page = yield* pageOf(q, filters)
    const listed = yield* listEvents(filters, page)
    const result = { ...listed, rows: yield* withLinks(listed.rows, q.dedupe === true) }
    const types = filters.types?.length === 1 ? filters.types : undefined
    const attribution = yield* listExtras(headers, {
      kind: "event",
      codes: q.jurisdiction,
      ref,
      types,
      rows: result.rows,
      total: result.total,
      warnings
    })
    if (auth.plan.data_delay_sec > 0) warnings.push(dataDelayWarning(auth.plan.data_delay_sec))
    return { envelope: pagedEnvelope(page, result, [], attribution), warnings }
  })

const IdPath = Schema.Struct({ id: Id("Event id (ev_…)") })

export const eventRoutes = [
  route({
    method: "get",
    path: "/events",
    operationId: "listEvents",
    summary: "Paged events",
    tag: "Events",
    access: Key,
    reads: "replica",
    shared: true,
    query: EventQuery,
    responses: {
      200: { description: "A page of events", schema: EventPage, headers: ["rateLimit", "jurisdictionWarning"] }
    },
    handler: ({ query, headers }) =>
      Effect.map(eventQuery(query, headers), ({ envelope, warnings }) => ({
        ...envelope,
        ...(warnings.length > 0 ? { warnings } : {})
      }))
  }),
  route({
    method: "get",
    path: "/events/geojson",
    operationId: "listEventsGeoJson",
    summary: "Events as GeoJSON (Starter and above)",
    tag: "Events",
    access: Key,
    reads: "replica",
    shared: true,
    query: EventQuery,
    responses: {
      200: {
        description: "RFC 7946 FeatureCollection",
        schema: EventCollection,
        contentType: "application/geo+json",
        headers: ["rateLimit", "jurisdictionWarning"]
      }
    },
    handler: ({ query, headers }) =>
      Effect.gen(function* () {
        yield* requireGeoJson
        const { envelope, warnings } = yield* eventQuery(query, headers)
        return featureCollection(headers, envelope, warnings, (e) => ({
          type: "Feature",
          id: e.id,
          geometry: { type: "Point", coordinates: [e.longitude, e.latitude] },
          properties: {
            id: e.id,
            source: e.source,
            jurisdiction: e.jurisdiction,
            type: e.type,
            severity: e.severity,
            status: e.status,
            title: e.title,
            affected_roads: e.affected_roads,
            direction: e.direction,
            start_time: e.start_time,
            quality_flags: e.quality_flags
          }
        }))
      })
  }),
  route({
    method: "get",
    path: "/events/:id",
    operationId: "getEvent",
    summary: "One event with its location and metadata",
    tag: "Events",
    access: Key,
    reads: "replica",
    shared: true,
    params: IdPath,
    responses: {
      200: { description: "The event", schema: EventDetail, headers: ["rateLimit"] },
      404: { description: "No such event" }
    },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const found = yield* getEvent(params.id)
        if (!found)
          return yield* Effect.fail(
            new NotFound({ message: `no event with id ${params.id}`, docsUrl: "/docs/api#events" })
          )
        yield* dependsOn(dependencyTags("event", [String(found.jurisdiction)]))
        const auth = yield* RequestAuth
        if (!auth.plan.allow_archived_events && found.status !== "active") {
          return yield* Effect.fail(
            planGate(auth, "plan_archived_event", `event ${params.id} has ended; your plan shows active events only`)
          )
        }
        const [row] = yield* withLinks([{ ...found, id: params.id }], false)
        return row
      })
  })
]
