import { Effect, Schema } from "effect"
import { FeatureHistoryType, HistoryType } from "../../shared/domain/Change.js"
import { KNOWN_FEATURE_TYPES } from "../../shared/domain/FeatureGroups.js"
import { arrayWarnings, checkSince } from "../analyticsWindow.js"
import { EVENT_TYPES } from "../../shared/domain/Event.js"
import { NotFound } from "../http/HttpError.js"
import { BboxParam, Bool, Id, Instant, Int, List } from "../http/QueryParams.js"
import { route } from "../http/Route.js"
import { JurisdictionParam, jurisdictionFilter } from "../jurisdictionFilter.js"
import { pagedEnvelope, pageFields, pageOf } from "../paging.js"
import { listChanges } from "../queries/AnalyticsChanges.js"
import { listFeatureHistory } from "../queries/AnalyticsFeatureHistory.js"
import { eventWeather, latestReadings } from "../queries/AnalyticsWeather.js"
import { EventWeatherSnapshot, FeatureHistoryPage, WeatherReading } from "../schemas/analytics.js"
import { analyticsAggregateRoutes, analyticsCommon } from "./analyticsAggregates.js"
import { eventHistory, getEvent } from "../queries/EventsQuery.js"
import { reference } from "../queries/Reference.js"
import { ChangePage, HistoryEntry } from "../schemas/events.js"
import { type ApiWarning, unknownValue, vocabularyFilter } from "../warnings.js"

const common = analyticsCommon

const ChangesQuery = Schema.Struct({
  jurisdiction: JurisdictionParam,
  type: Schema.optional(List(`Event type: ${EVENT_TYPES.join(", ")}`)),
  change_type: Schema.optional(List(`${HistoryType.literals.join(", ")}`)),
  since: Schema.optional(Instant("changed_at at or after (UTC)")),
  until: Schema.optional(Instant("changed_at before (UTC)")),
  ...pageFields()
})

const FeatureHistoryQuery = Schema.Struct({
  feature_id: Schema.optional(List("Feature id or comma list")),
  type: Schema.optional(List("Feature type, e.g. cameras, weather_stations")),
  jurisdiction: JurisdictionParam,
  change_type: Schema.optional(List(`${FeatureHistoryType.literals.join(", ")}`)),
  since: Schema.optional(Instant("changed_at at or after (UTC)")),
  until: Schema.optional(Instant("changed_at before (UTC)")),
  ...pageFields()
})

/** Analytics over event and feature history (Pro and above). */
export const analyticsRoutes = [
  route({
    ...common,
    method: "get",
    path: "/analytics/history/:id",
    operationId: "eventHistory",
    summary: "Pro and above; an event's lifecycle, oldest first",
    params: Schema.Struct({ id: Id("Event id (ev_…)") }),
    responses: {
      200: { description: "History entries", schema: Schema.Array(HistoryEntry), headers: ["rateLimit"] },
      404: { description: "No such event" }
    },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const rows = yield* eventHistory(params.id)
        if (rows.length === 0 && !(yield* getEvent(params.id))) {
          return yield* Effect.fail(
            new NotFound({ message: `no event with id ${params.id}`, docsUrl: "/docs/api#analytics" })
          )
        }
        return rows
      })
  }),
  route({
    ...common,
    method: "get",
    path: "/analytics/changes",
    operationId: "analyticsChanges",
    summary: "Pro and above; lifecycle changes across events, oldest first, within the plan's history window",
    query: ChangesQuery,
    responses: { 200: { description: "A page of changes", schema: ChangePage, headers: ["rateLimit"] } },
    handler: ({ query }) =>
      Effect.gen(function* () {
        const earliest = yield* checkSince(query.since)
        const warnings: Array<ApiWarning> = []
        const filters = {
          jurisdictions: yield* jurisdictionFilter(query.jurisdiction, yield* reference, warnings),
          types: vocabularyFilter(query.type, "type", EVENT_TYPES, "unknown_type", warnings),
          changeTypes: vocabularyFilter(
            query.change_type,
            "change_type",
            HistoryType.literals,
            "unknown_change_type",
            warnings
          ),
          since: query.since,
          until: query.until,
          earliest
        }
        // the window moves with the clock, so it stays out of the cursor's filter key
        const page = yield* pageOf(query, { ...filters, earliest: undefined })
        return pagedEnvelope(page, yield* listChanges(filters, page), warnings)
      })
  }),
  route({
    ...common,
    method: "get",
    path: "/analytics/feature-history",
    operationId: "analyticsFeatureHistory",
    summary:
      "Pro and above; feature lifecycle changes (created, deactivated, reactivated), oldest first, within the plan's history window",
    query: FeatureHistoryQuery,
    responses: {
      200: { description: "A page of feature lifecycle changes", schema: FeatureHistoryPage, headers: ["rateLimit"] }
    },
    handler: ({ query }) =>
      Effect.gen(function* () {
        const earliest = yield* checkSince(query.since)
        const warnings: Array<ApiWarning> = []
        const types = query.type?.map((t) => t.toLowerCase())
        for (const t of types ?? [])
          if (!KNOWN_FEATURE_TYPES.includes(t))
            warnings.push(unknownValue("unknown_type", "feature type", t, KNOWN_FEATURE_TYPES))
        const filters = {
          featureIds: query.feature_id && query.feature_id.length > 0 ? query.feature_id : undefined,
          types: types && types.length > 0 ? types : undefined,
          jurisdictions: yield* jurisdictionFilter(query.jurisdiction, yield* reference, warnings),
          changeTypes: vocabularyFilter(
            query.change_type,
            "change_type",
            FeatureHistoryType.literals,
            "unknown_change_type",
            warnings
          ),
          since: query.since,
          until: query.until,
          earliest
        }
        const page = yield* pageOf(query, { ...filters, earliest: undefined })
        return pagedEnvelope(page, yield* listFeatureHistory(filters, page), warnings)
      })
  }),
  route({
    ...common,
    method: "get",
    path: "/analytics/weather",
    operationId: "analyticsWeather",
    summary: "Pro and above; the latest reading of each weather station, by station id",
    query: Schema.Struct({
      jurisdiction: JurisdictionParam,
      bbox: Schema.optional(BboxParam),
      include_inactive: Schema.optional(
        Bool("Include stations that left their feed or report themselves inactive; default false")
      ),
      limit: Schema.optional(Int(1, 5000, "Stations returned; default 1,000, at most 5,000"))
    }),
    responses: {
      200: { description: "Latest readings", schema: Schema.Array(WeatherReading), headers: ["rateLimit", "warnings"] }
    },
    handler: ({ query, headers }) =>
      Effect.gen(function* () {
        const warnings: Array<ApiWarning> = []
        const jurisdictions = yield* jurisdictionFilter(query.jurisdiction, yield* reference, warnings)
        const rows = yield* latestReadings({
          jurisdictions,
          bbox: query.bbox,
          includeInactive: query.include_inactive ?? false,
          limit: query.limit ?? 1000
        })
        arrayWarnings(headers, warnings)
        return rows
      })
  }),
  route({
    ...common,
    method: "get",
    path: "/analytics/event-weather/:id",
    operationId: "analyticsEventWeather",
    summary: "Pro and above; the weather snapshot recorded at the event's creation from the nearest active station",
    params: Schema.Struct({ id: Id("Event id (ev_…)") }),
    responses: {
      200: { description: "The snapshot", schema: EventWeatherSnapshot, headers: ["rateLimit"] },
      404: { description: "No such event, or no station was near enough when it was created" }
    },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const snapshot = yield* eventWeather(params.id)
        if (snapshot) return snapshot
        const message = (yield* getEvent(params.id))
          ? `event ${params.id} has no weather snapshot: no active station was within range when it was created`
          : `no event with id ${params.id}`
        return yield* Effect.fail(new NotFound({ message, docsUrl: "/docs/api#analytics" }))
      })
  }),
  ...analyticsAggregateRoutes,
  // after every real path: an unknown analytics path is a plan gate below Pro and a 404 above
  route({
    ...common,
    method: "get",
    path: "/analytics/:rest(.*)",
    operationId: "analyticsUnknown",
    summary: "unknown analytics path",
    hidden: true,
    params: Schema.Struct({ rest: Id("the rest of the path", 400) }),
    responses: { 404: { description: "No such analytics endpoint" } },
    handler: ({ params }) =>
      Effect.fail(
        new NotFound({
          message: `no such analytics endpoint: /analytics/${params.rest.slice(0, 200)}; see /api/v1/openapi.json`,
          docsUrl: "/docs/api#analytics"
        })
      )
  })
]
