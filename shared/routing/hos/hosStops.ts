import { Effect } from "effect"
import type { RouteTiming, RouteTrack } from "../RoutingEngine.js"
import type { HazardRows } from "../hazards/hazardRows.js"
import { metresAt } from "../routeTime.js"
import { type HosStopPlan, projectHos } from "./projectHos.js"
import type { HosInput, HosRulesetName } from "./rulesets.js"
import { type StopCandidate, stopCandidates } from "./stopCandidates.js"

/** suggested stops listed per HOS stop, closest to the deadline first */
const MAX_SUGGESTED = 5

const iso = (ms: number) => new Date(ms).toISOString()

/** The places to stop along the route, or null when the lookup failed (logged). */
export const lookupStops = (route: RouteTrack, rows: HazardRows) =>
  Effect.either(stopCandidates(route, rows)).pipe(Effect.flatMap((lookup) => lookup._tag === "Right"
    ? Effect.succeed<ReadonlyArray<StopCandidate> | null>(lookup.right)
    : Effect.as(Effect.logWarning(`HOS parking lookup failed; stops projected without it: ${String(lookup.left)}`), null)))

/**
 * The `hos[]` of a route (SPEC §2.10): the projection's stops, each with the places a driver can
 * rest at before its legal deadline. The projection takes each stop at the suggestion closest to
 * the deadline (a lot the live feed shows full or closed is no suggestion); without one it stops
 * where the hours run out. When the parking lookup fails the stops are still projected, at the
 * limits, and `feasible` is left out (`candidates` null). No reads: `lookupStops` found them.
 */
export const planStops = (route: RouteTiming, ruleset: HosRulesetName, input: HosInput, departureMs: number, candidates: ReadonlyArray<StopCandidate> | null) => {
  const usable = candidates === null ? undefined : candidates.filter((c) => !c.unusable)
  const reachable = (fromS: number, limitS: number): Array<StopCandidate> =>
    (usable ?? []).filter((c) => c.alongS > fromS && c.alongS <= limitS).sort((a, b) => b.alongS - a.alongS || a.id.localeCompare(b.id)).slice(0, MAX_SUGGESTED)
  const plan = projectHos(route.duration_s, departureMs, ruleset, input, usable ? (from, limit) => reachable(from, limit)[0]?.alongS : undefined)
  return { plan, stops: answerStops(route, plan, usable, reachable) }
}

const answerStops = (route: RouteTiming, plan: ReadonlyArray<HosStopPlan>, usable: ReadonlyArray<StopCandidate> | undefined, reachable: (fromS: number, limitS: number) => Array<StopCandidate>) =>
  plan.map((s) => {
    const stops = reachable(s.fromS, s.limitS)
    return {
      reason: s.reason,
      distance_along_route_m: Math.round(metresAt(route, s.stopS)),
      projected_time: iso(s.projectedMs),
      legal_deadline: iso(s.deadlineMs),
      deadline_distance_along_route_m: Math.round(metresAt(route, s.limitS)),
      rest_s: s.restS,
      rest_kind: s.restKind,
      ...(usable ? { feasible: stops.length > 0 } : {}),
      suggested_stops: stops.map((c) => ({
        id: c.id, type: c.type, name: c.name, distance_along_route_m: Math.round(c.alongM), capacity: c.capacity,
        ...(c.available_spots !== undefined ? { available_spots: c.available_spots, as_of: c.as_of ?? null } : {}),
        geometry: c.geometry
      }))
    }
  })
