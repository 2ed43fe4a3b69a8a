import { Effect, Schema } from "effect"
import { EVENT_TYPES } from "../shared/domain/Event.js"
import { nowMillis } from "../shared/time/Now.js"
import { headerText } from "./coverageWarning.js"
import { warningHeader } from "./geojson.js"
import { BadRequest } from "./http/HttpError.js"
import { Instant, List } from "./http/QueryParams.js"
import { RequestAuth } from "./http/RequestAuth.js"
import type { ResponseHeaders } from "./http/Route.js"
import { JurisdictionParam, jurisdictionFilter } from "./jurisdictionFilter.js"
import { planGate } from "./middleware/planGate.js"
import type { FactFilters } from "./queries/AnalyticsFacts.js"
import { reference } from "./queries/Reference.js"
import { type ApiWarning, vocabularyFilter } from "./warnings.js"

export const DEFAULT_WINDOW_DAYS = 30
const DAY_MS = 86_400_000

/** The window and filters every event aggregate takes (clearance, corridors, trends, hotspots, weather correlation). */
export const windowFields = {
  jurisdiction: JurisdictionParam,
  type: Schema.optional(List(`Event type: ${EVENT_TYPES.join(", ")}`)),
  since: Schema.optional(
    Instant(
      `Events first reported at or after this instant (UTC); default ${DEFAULT_WINDOW_DAYS} days before until, never before the plan's history window`
    )
  ),
  until: Schema.optional(Instant("Events first reported before this instant (UTC); default now"))
}

export interface WindowQuery {
  readonly jurisdiction?: ReadonlyArray<string> | undefined
  readonly type?: ReadonlyArray<string> | undefined
  readonly since?: string | undefined
  readonly until?: string | undefined
}

/** The start of the caller's plan history window (undefined: unlimited), with its length in days. */
export const historyWindow = Effect.gen(function* () {
  const auth = yield* RequestAuth
  const days = auth.plan.event_history_days
  const earliest = days === null ? undefined : new Date((yield* nowMillis) - days * DAY_MS).toISOString()
  return { days, earliest }
})

/** A `since` reaching back past the plan's window is a plan gate (SPEC §7 plan_event_time_range). */
export const checkSince = (since: string | undefined) =>
  Effect.gen(function* () {
    const auth = yield* RequestAuth
    const { days, earliest } = yield* historyWindow
    if (earliest && since && since < earliest) {
      return yield* Effect.fail(
        planGate(auth, "plan_event_time_range", `since reaches back further than your plan's ${days}-day history`)
      )
    }
    return earliest
  })

/**
 * The resolved window: `until` defaults to now, `since` to 30 days before it (clamped to the
 * plan's window); unknown jurisdictions and types become warnings and match nothing.
 */
export const resolveWindow = (q: WindowQuery, warnings: Array<ApiWarning>) =>
  Effect.gen(function* () {
    const earliest = yield* checkSince(q.since)
    const until = q.until ?? new Date(yield* nowMillis).toISOString()
    const byDefault = new Date(Date.parse(until) - DEFAULT_WINDOW_DAYS * DAY_MS).toISOString()
    const since = q.since ?? (earliest && earliest > byDefault ? earliest : byDefault)
    if (since >= until)
      return yield* Effect.fail(new BadRequest({ message: `since (${since}) must be before until (${until})` }))
    const filters: FactFilters = {
      since,
      until,
      jurisdictions: yield* jurisdictionFilter(q.jurisdiction, yield* reference, warnings),
      types: vocabularyFilter(q.type, "type", EVENT_TYPES, "unknown_type", warnings)
    }
    return filters
  })

/** An array answer's warnings: JSON in `X-Warnings`, text in `X-Jurisdiction-Warning`. */
export const arrayWarnings = (headers: ResponseHeaders, warnings: ReadonlyArray<ApiWarning>) => {
  if (warnings.length > 0) headers.set("X-Warnings", headerText(JSON.stringify(warnings)))
  warningHeader(headers, warnings)
}
