import { Effect } from "effect"
import type { HazardRows } from "./hazards/hazardRows.js"
import { atLeast, HAZARD_FEATURE_TYPES, type HazardOptions, type RouteFeature, routeHazards, type Severity, type Warning } from "./hazards/routeHazards.js"
import { hosStops } from "./hos/hosStops.js"
import type { HosCounters } from "./hos/projectHos.js"
import type { HosRulesetName } from "./hos/rulesets.js"
import { STOP_TYPES } from "./hos/stopCandidates.js"
import type { RouteTrack } from "./RoutingEngine.js"

/**
 * How a route's warnings, features and hours-of-service stops are worked out, kept with a saved
 * route so a refetch or the monitor evaluates it exactly as the call did, against newer data.
 */
export interface Evaluation {
  readonly hazards: HazardOptions
  /** the request's post-routing filter (SPEC §4.4 `enrichment`) */
  readonly shown: { readonly minSeverity: Severity; readonly excludeTypes: ReadonlyArray<string>; readonly maxDistanceM?: number }
  readonly hos?: { readonly ruleset: HosRulesetName; readonly counters: HosCounters }
}

export type ShownWarning = Omit<Warning, "blocking" | "segment">

/** Feature types the evaluation reads: hazards, requested features and, with hos, places to stop. */
export const featureTypesOf = (e: Evaluation) =>
  [...new Set([...HAZARD_FEATURE_TYPES, ...e.hazards.includeFeatures, ...(e.hos ? Object.keys(STOP_TYPES) : [])])]

/** The warnings the request's filter lets through, in the answer's shape. */
export const shownWarnings = (warnings: ReadonlyArray<Warning>, s: Evaluation["shown"]): Array<ShownWarning> => {
  const excluded = new Set(s.excludeTypes)
  return warnings
    .filter((w) => atLeast(w.severity, s.minSeverity) && !excluded.has(w.type) && (s.maxDistanceM === undefined || w.distance_along_route_m <= s.maxDistanceM))
    .map(({ blocking: _b, segment: _s, ...w }) => w)
}

/** One warning's identity across evaluations: the hazard, and the dimension for a restriction. */
export const warningKey = (w: ShownWarning) => `${w.type}|${w.source}|${w.source_id}|${String(w.properties.dimension ?? "")}`

export interface Evaluated {
  readonly warnings: Array<ShownWarning>
  readonly features: ReadonlyArray<RouteFeature>
  readonly hos?: Effect.Effect.Success<ReturnType<typeof hosStops>>
}

type Hazards = Effect.Effect.Success<ReturnType<typeof routeHazards>>

/**
 * Warnings and features of each route, and `hos[]` of the first (SPEC §4.4 rule 1); `known`
 * holds hazards already worked out for a route in this same request.
 */
export const evaluateRoutes = (routes: ReadonlyArray<RouteTrack>, e: Evaluation, nowMs: number, rows: HazardRows, known?: ReadonlyMap<RouteTrack, Hazards>) =>
  Effect.forEach(routes, (r, i) =>
    Effect.gen(function* () {
      const h = known?.get(r) ?? (yield* routeHazards(r, e.hazards, nowMs, rows))
      const hos = i === 0 && e.hos ? yield* hosStops(r, e.hos.ruleset, e.hos.counters, e.hazards.departureMs, rows) : undefined
      return { warnings: shownWarnings(h.warnings, e.shown), features: h.features, ...(hos ? { hos } : {}) } satisfies Evaluated
    }))

/** A saved route evaluated later leaves at its departure time, or now once that has passed. */
export const departingBy = (e: Evaluation, nowMs: number): Evaluation =>
  e.hazards.departureMs >= nowMs ? e : { ...e, hazards: { ...e.hazards, departureMs: nowMs } }
