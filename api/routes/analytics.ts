import { Effect, Schema } from "effect"
import { NotFound } from "../http/HttpError.js"
import { Id } from "../http/QueryParams.js"
import { route } from "../http/Route.js"
import { eventHistory, getEvent } from "../queries/EventsQuery.js"
import { HistoryEntry } from "../schemas/events.js"

const analyticsGate = { allowed: (p: { allow_analytics: boolean }) => p.allow_analytics, code: "plan_analytics", message: "analytics are available on Pro and above" } as const

/** Analytics over event history (Pro and above). */
export const analyticsRoutes = [
  route({
    method: "get", path: "/analytics/history/:id", operationId: "eventHistory", summary: "Pro and above; an event's lifecycle, oldest first", tag: "Analytics",
    access: "key", gate: analyticsGate,
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
  })
]
