import { Effect, Schema } from "effect"
import { HistoryType } from "../../shared/domain/Change.js"
import { EVENT_TYPES } from "../../shared/domain/Event.js"
import { nowMillis } from "../../shared/time/Now.js"
import { NotFound } from "../http/HttpError.js"
import { Id, Instant, List } from "../http/QueryParams.js"
import { RequestAuth } from "../http/RequestAuth.js"
import { route } from "../http/Route.js"
import { JurisdictionParam, jurisdictionFilter } from "../jurisdictionFilter.js"
import { planGate } from "../middleware/planGate.js"
import { pagedEnvelope, pageFields, pageOf } from "../paging.js"
import { listChanges } from "../queries/AnalyticsChanges.js"
import { eventHistory, getEvent } from "../queries/EventsQuery.js"
import { reference } from "../queries/Reference.js"
import { ChangePage, HistoryEntry } from "../schemas/events.js"
import { type ApiWarning, vocabularyFilter } from "../warnings.js"

export const analyticsGate = { allowed: (p: { allow_analytics: boolean }) => p.allow_analytics, code: "plan_analytics", message: "analytics are available on Pro and above" } as const
const common = { tag: "Analytics", access: "key", gate: analyticsGate } as const

const ChangesQuery = Schema.Struct({
  jurisdiction: JurisdictionParam,
  type: Schema.optional(List(`Event type: ${EVENT_TYPES.join(", ")}`)),
  change_type: Schema.optional(List(`${HistoryType.literals.join(", ")}`)),
  since: Schema.optional(Instant("changed_at at or after (UTC)")),
  until: Schema.optional(Instant("changed_at before (UTC)")),
  ...pageFields()
})

/** Analytics over event history (Pro and above). */
export const analyticsRoutes = [
  route({
    ...common, method: "get", path: "/analytics/history/:id", operationId: "eventHistory", summary: "Pro and above; an event's lifecycle, oldest first",
    params: Schema.Struct({ id: Id("Event id (ev_…)") }),
    responses: { 200: { description: "History entries", schema: Schema.Array(HistoryEntry), headers: ["rateLimit"] }, 404: { description: "No such event" } },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const rows = yield* eventHistory(params.id)
        if (rows.length === 0 && !(yield* getEvent(params.id))) {
          return yield* Effect.fail(new NotFound({ message: `no event with id ${params.id}`, docsUrl: "/docs/api#analytics" }))
        }
        return rows
      })
  }),
  route({
    ...common, method: "get", path: "/analytics/changes", operationId: "analyticsChanges",
    summary: "Pro and above; lifecycle changes across events, oldest first, within the plan's history window",
    query: ChangesQuery,
    responses: { 200: { description: "A page of changes", schema: ChangePage, headers: ["rateLimit"] } },
    handler: ({ query }) =>
      Effect.gen(function* () {
        const auth = yield* RequestAuth
        const now = yield* nowMillis
        const days = auth.plan.event_history_days
        const earliest = days === null ? undefined : new Date(now - days * 86_400_000).toISOString()
        if (earliest && query.since && query.since < earliest) {
          return yield* Effect.fail(planGate(auth, "plan_event_time_range", `since reaches back further than your plan's ${days}-day history`))
        }
        const warnings: Array<ApiWarning> = []
        const filters = {
          jurisdictions: yield* jurisdictionFilter(query.jurisdiction, yield* reference, warnings),
          types: vocabularyFilter(query.type, "type", EVENT_TYPES, "unknown_type", warnings),
          changeTypes: vocabularyFilter(query.change_type, "change_type", HistoryType.literals, "unknown_change_type", warnings),
          since: query.since, until: query.until, earliest
        }
        // the window moves with the clock, so it stays out of the cursor's filter key
        const page = yield* pageOf(query, { ...filters, earliest: undefined })
        return pagedEnvelope(page, yield* listChanges(filters, page), warnings)
      })
  }),
  // after every real path: an unknown analytics path is a plan gate below Pro and a 404 above
  route({
    ...common, method: "get", path: "/analytics/:rest(.*)", operationId: "analyticsUnknown", summary: "unknown analytics path", hidden: true,
    params: Schema.Struct({ rest: Id("the rest of the path", 400) }),
    responses: { 404: { description: "No such analytics endpoint" } },
    handler: ({ params }) =>
      Effect.fail(new NotFound({ message: `no such analytics endpoint: /analytics/${params.rest.slice(0, 200)}; see /api/v1/openapi.json`, docsUrl: "/docs/api#analytics" }))
  })
]
