import { Effect } from "effect"
import type { HazardRows } from "../hazards/hazardRows.js"
import {
  atLeast,
  HAZARD_FEATURE_TYPES,
  type HazardOptions,
  judgeHazards,
  placeHazards,
  type PlacedHazards,
  type RouteFeature,
  type Severity,
  type Warning
} from "../hazards/routeHazards.js"
import { lookupStops, planStops } from "../hos/hosStops.js"
import { arrivalWithRests } from "../hos/projectHos.js"
import type { HosInput, HosRulesetName } from "../hos/rulesets.js"
import type { StopCandidate } from "../hos/stopCandidates.js"
import type { RouteTrack } from "../engine/RoutingEngine.js"
import { without } from "../../domain/without.js"

/**
 * How a route's warnings, features and hours-of-service stops are worked out, kept with a saved
 * route so a refetch or the monitor evaluates it exactly as the call did, against newer data.
 */
export interface Evaluation {
  readonly hazards: HazardOptions
  /** the request's post-routing filter (SPEC §4.4 `enrichment`) */
  readonly shown: {
    readonly minSeverity: Severity
    readonly excludeTypes: ReadonlyArray<string>
    readonly maxDistanceM?: number
  }
  /** `counters` holds the request's whole truck.hos but the ruleset: counters and options */
  readonly hos?: { readonly ruleset: HosRulesetName; readonly counters: HosInput }
}

export type ShownWarning = Omit<Warning, "blocking" | "segment">

/** Feature types read beside the route: hazards and requested features (places to stop are read on their own band). */
export const featureTypesOf = (e: Evaluation) => [...new Set([...HAZARD_FEATURE_TYPES, ...e.hazards.includeFeatures])]

/** Whether the request's filter (SPEC §4.4 `enrichment`) lets a warning through. */
export const shows = (s: Evaluation["shown"], type: string, severity: Severity, distanceM: number) =>
  atLeast(severity, s.minSeverity) &&
  !s.excludeTypes.includes(type) &&
  (s.maxDistanceM === undefined || distanceM <= s.maxDistanceM)

/** The warnings the request's filter lets through, in the answer's shape. */
export const shownWarnings = (warnings: ReadonlyArray<Warning>, s: Evaluation["shown"]): Array<ShownWarning> =>
  warnings
    .filter((w) => shows(s, w.type, w.severity, w.distance_along_route_m))
    .map((w) => without(w, "blocking", "segment"))

/** One warning's identity across evaluations: the hazard, and the dimension for a restriction. */
export const warningKey = (w: ShownWarning) =>
  `${w.type}|${w.source}|${w.source_id}|${String(w.properties.dimension ?? "")}`

export interface Evaluated {
  readonly warnings: Array<ShownWarning>
  readonly features: ReadonlyArray<RouteFeature>
  readonly hos?: ReturnType<typeof planStops>["stops"]
}

/**
 * What a route's evaluation read: its events and features placed along it, and (first route, with hos) its places to
 * stop.
 */
export interface PlacedRoute {
  readonly hazards: PlacedHazards
  /** null: the parking lookup failed; absent: not asked for */
  readonly stops?: ReadonlyArray<StopCandidate> | null
}

/** Reads and places what lies along each route; `known` holds placements this request made already. */
export const placeRoutes = (
  routes: ReadonlyArray<RouteTrack>,
  e: Evaluation,
  rows: HazardRows,
  known?: ReadonlyMap<RouteTrack, PlacedHazards>
) => Effect.forEach(routes, (r, i) => placeRoute(r, i, e, rows, known))

/**
 * One route's placement; a generator made once, so it keeps no request's rows (keptByScavenges,
 * api/http/mountRoutes.ts).
 */
const placeRoute = Effect.fnUntraced(function* (
  r: RouteTrack,
  i: number,
  e: Evaluation,
  rows: HazardRows,
  known?: ReadonlyMap<RouteTrack, PlacedHazards>
) {
  const hazards = known?.get(r) ?? (yield* placeHazards(r, e.hazards, rows))
  const stops = i === 0 && e.hos ? yield* lookupStops(r, rows, e.hos, e.hazards.departureMs) : undefined
  return { hazards, ...(stops !== undefined ? { stops } : {}) } satisfies PlacedRoute
})

/**
 * Warnings and features of each route, and `hos[]` of the first (SPEC §4.4 rule 1), from placed
 * rows; no reads. The first route's warnings are judged at arrivals that include its planned
 * rests; the alternatives, which get no `hos[]`, at the departure plus the driving.
 */
export const judgeRoutes = (
  routes: ReadonlyArray<RouteTrack>,
  e: Evaluation,
  nowMs: number,
  placed: ReadonlyArray<PlacedRoute>
): Array<Evaluated> =>
  routes.map((r, i) => {
    const stops = placed[i].stops
    const hos =
      i === 0 && e.hos && stops !== undefined
        ? planStops(r, e.hos.ruleset, e.hos.counters, e.hazards.departureMs, stops)
        : undefined
    const h = judgeHazards(
      r,
      e.hazards,
      nowMs,
      placed[i].hazards,
      hos ? arrivalWithRests(hos.plan, e.hazards.departureMs) : undefined
    )
    return { warnings: shownWarnings(h.warnings, e.shown), features: h.features, ...(hos ? { hos: hos.stops } : {}) }
  })

export const evaluateRoutes = (routes: ReadonlyArray<RouteTrack>, e: Evaluation, nowMs: number, rows: HazardRows) =>
  Effect.map(placeRoutes(routes, e, rows), (placed) => judgeRoutes(routes, e, nowMs, placed))

/** A saved route evaluated later leaves at its departure time, or now once that has passed. */
export const departingBy = (e: Evaluation, nowMs: number): Evaluation =>
  e.hazards.departureMs >= nowMs ? e : { ...e, hazards: { ...e.hazards, departureMs: nowMs } }
