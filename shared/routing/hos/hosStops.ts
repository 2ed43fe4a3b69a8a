import { expectedAt, forecastCurves } from "../../parking/forecastCurve.js"
import type { ParkingForecast } from "../../parking/ParkingForecaster.js"
import { Effect } from "effect"
import type { RouteTiming, RouteTrack } from "../engine/RoutingEngine.js"
import type { HazardRows } from "../hazards/hazardRows.js"
import { metresAt } from "../engine/routeTime.js"
import { switchesFor } from "./countryRules.js"
import { type HosStopPlan, projectHos } from "./projectHos.js"
import type { HosInput, HosRulesetName } from "./rulesets.js"
import { byPlace, STOP_REACH_M, type StopCandidate, stopCandidates } from "./stopCandidates.js"

/** suggested stops listed per HOS stop, closest to the deadline first */
const MAX_SUGGESTED = 5

const iso = (ms: number) => new Date(ms).toISOString()

/** The regimes whose stops depend on the departure's place in the calendar (Canada south's day, the EU's week). */
export const CALENDAR_REGIMES: ReadonlySet<HosRulesetName> = new Set(["canada_south", "eu"])

/**
 * The places to stop the plan needs, or null when the lookup failed (logged). A regime whose
 * stops fall where they do whatever the departure reads only the stretches where its rests
 * fall (`stopsForPlan`); a calendar regime reads the whole route, since a saved route
 * refetched later stops elsewhere.
 */
export const lookupStops = (
  route: RouteTrack,
  rows: HazardRows,
  hos?: { readonly ruleset: HosRulesetName; readonly counters: HosInput },
  departureMs = 0
) =>
  Effect.either(
    hos === undefined || CALENDAR_REGIMES.has(hos.ruleset)
      ? stopCandidates(route, rows)
      : stopsForPlan(route, rows, hos.ruleset, hos.counters, departureMs)
  ).pipe(
    Effect.flatMap((lookup) =>
      lookup._tag === "Right"
        ? withForecasts(lookup.right)
        : Effect.as(
            Effect.logWarning(`HOS parking lookup failed; stops projected without it: ${String(lookup.left)}`),
            null
          )
    )
  )

/**
 * The candidates with the parking forecaster's curve on each lot it knows. A forecast that cannot
 * be made (no model yet, a failed read) leaves the lots as they were: it never fails a route.
 */
const withForecasts = (candidates: ReadonlyArray<StopCandidate>) =>
  forecastCurves(candidates.flatMap((c) => (c.site !== undefined ? [c.site] : []))).pipe(
    Effect.map((curves): ReadonlyArray<StopCandidate> | null =>
      curves.size === 0
        ? candidates
        : candidates.map((c) => {
            const curve = c.site !== undefined ? curves.get(c.site) : undefined
            return curve === undefined ? c : { ...c, forecast: curve }
          })
    ),
    Effect.catchAll((e) =>
      Effect.as(Effect.logWarning(`parking forecasts left out of HOS stops: ${String(e)}`), candidates)
    )
  )

/** The first stretch read before a stop's deadline: an hour's driving, doubled while it holds too few places. */
const FIRST_STRETCH_S = 3600
/** Rounds of reading before the whole route is read instead (a route with many stops and few places). */
const MAX_ROUNDS = 6

/** The lowest point from which every place up to `s` is known, or `s` itself when `s` is in no known stretch. */
const knownFrom = (known: ReadonlyArray<readonly [number, number]>, s: number) => {
  for (const [a, b] of known) if (a <= s && s <= b) return a
  return s
}

/** Known stretches with one more, merged where they meet (drive seconds, ascending). */
const withStretch = (known: ReadonlyArray<readonly [number, number]>, [a, b]: readonly [number, number]) => {
  const out: Array<[number, number]> = []
  for (const [x, y] of [...known, [a, b] as const].sort((p, q) => p[0] - q[0])) {
    const last = out[out.length - 1]
    if (last && x <= last[1]) last[1] = Math.max(last[1], y)
    else out.push([x, y])
  }
  return out
}

/**
 * The stretches (drive seconds) still to read for the plan to be the one the whole route's
 * places give: every stop's suggestions (the usable places closest before its deadline,
 * MAX_SUGGESTED of them, or all since the leg began) must come from stretches already read.
 * Empty when they do. Plain computation, no reads.
 */
export const stretchesNeeded = (
  route: RouteTiming,
  ruleset: HosRulesetName,
  input: HosInput,
  departureMs: number,
  usable: ReadonlyArray<StopCandidate>,
  known: ReadonlyArray<readonly [number, number]>
) => {
  const needed: Array<readonly [number, number]> = []
  const switches = switchesFor(route, ruleset)
  projectHos(
    route.duration_s,
    departureMs,
    ruleset,
    input,
    (fromS, limitS) => {
      const floor = knownFrom(known, limitS)
      const best = usable
        .filter((c) => c.alongS > fromS && c.alongS <= limitS && c.alongS >= floor)
        .sort((a, b) => b.alongS - a.alongS || a.id.localeCompare(b.id))
        .slice(0, MAX_SUGGESTED)
      if (best.length < MAX_SUGGESTED && floor > fromS)
        needed.push([Math.max(fromS, limitS - Math.max(FIRST_STRETCH_S, 2 * (limitS - floor))), limitS])
      // until it is known, the plan goes on from the best place seen so far
      return best[0]?.alongS
    },
    switches
  )
  return needed
}

/**
 * The places to stop a clock-free plan needs, read stretch by stretch: first an hour's driving
 * before each deadline the plan meets, then wider where a stretch holds too few places, until
 * every stop's suggestions are known. The plan made from them is the one the whole route's
 * places make; a long route reads a few hours of its length instead of all of it.
 */
export const stopsForPlan = Effect.fnUntraced(function* (
  route: RouteTrack,
  rows: HazardRows,
  ruleset: HosRulesetName,
  input: HosInput,
  departureMs: number
) {
  const found = new Map<string, StopCandidate>()
  let known: ReadonlyArray<readonly [number, number]> = []
  // metres of slack on each side of a stretch: the seconds-to-metres conversion rounds
  const slackM = 50
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const usable = [...found.values()].filter((c) => !c.unusable)
    const needed = stretchesNeeded(route, ruleset, input, departureMs, usable, known)
    if (needed.length === 0) return [...found.values()].sort(byPlace)
    // one read for the round's stretches: their covers share the cells where they meet
    const cells = new Set<string>()
    for (const stretch of needed) {
      for (const c of rows.coverOfStretch(
        route,
        STOP_REACH_M,
        metresAt(route, stretch[0]) - slackM,
        metresAt(route, stretch[1]) + slackM
      ))
        cells.add(c)
      known = withStretch(known, stretch)
    }
    for (const c of yield* stopCandidates(route, rows, [...cells])) found.set(c.id, c)
  }
  return yield* stopCandidates(route, rows)
})

/**
 * The `hos[]` of a route (SPEC §2.10): the projection's stops, each with the places a driver can
 * rest at before its legal deadline. The projection takes each stop at the suggestion closest to
 * the deadline (a lot the live feed shows full or closed is no suggestion); without one it stops
 * where the hours run out. When the parking lookup fails the stops are still projected, at the
 * limits, and `feasible` is left out (`candidates` null). No reads: `lookupStops` found them.
 */
export const planStops = (
  route: RouteTiming,
  ruleset: HosRulesetName,
  input: HosInput,
  departureMs: number,
  candidates: ReadonlyArray<StopCandidate> | null
) => {
  const usable = candidates === null ? undefined : candidates.filter((c) => !c.unusable)
  const project = (likelyFull: ReadonlySet<string>) => {
    // closest to the deadline first; a lot likely full when the driver gets there goes after the others
    const reachable = (fromS: number, limitS: number): Array<StopCandidate> =>
      (usable ?? [])
        .filter((c) => c.alongS > fromS && c.alongS <= limitS)
        .sort(
          (a, b) =>
            Number(likelyFull.has(a.id)) - Number(likelyFull.has(b.id)) ||
            b.alongS - a.alongS ||
            a.id.localeCompare(b.id)
        )
        .slice(0, MAX_SUGGESTED)
    const plan = projectHos(
      route.duration_s,
      departureMs,
      ruleset,
      input,
      usable ? (from, limit) => reachable(from, limit)[0]?.alongS : undefined,
      switchesFor(route, ruleset)
    )
    return { plan, reachable }
  }
  const first = project(new Set())
  const forecastOf = arrivals(first.plan, departureMs)
  const likelyFull = new Set((usable ?? []).filter((c) => (forecastOf(c)?.p_full ?? 0) >= LIKELY_FULL).map((c) => c.id))
  const { plan, reachable } = likelyFull.size === 0 ? first : project(likelyFull)
  return { plan, stops: answerStops(route, plan, usable, reachable, arrivals(plan, departureMs)) }
}

/** A lot this likely to be full when the driver gets there is suggested after the others. */
export const LIKELY_FULL = 0.5

/**
 * A lot's forecast at the driver's arrival there: departure, plus the driving to it, plus the
 * rests planned before the stop whose window holds it.
 */
const arrivals =
  (plan: ReadonlyArray<HosStopPlan>, departureMs: number) =>
  (c: StopCandidate): (ParkingForecast & { at: string }) | undefined => {
    if (c.forecast === undefined) return undefined
    const stop = plan.find((s) => c.alongS > s.fromS && c.alongS <= s.limitS) ?? plan[plan.length - 1]
    const restedMs = stop === undefined ? 0 : stop.projectedMs - departureMs - stop.stopS * 1000
    return expectedAt(c.forecast, departureMs + c.alongS * 1000 + Math.max(0, restedMs))
  }

const answerStops = (
  route: RouteTiming,
  plan: ReadonlyArray<HosStopPlan>,
  usable: ReadonlyArray<StopCandidate> | undefined,
  reachable: (fromS: number, limitS: number) => Array<StopCandidate>,
  forecastOf: (c: StopCandidate) => (ParkingForecast & { at: string }) | undefined
) =>
  plan.map((s) => {
    const stops = reachable(s.fromS, s.limitS)
    return {
      ruleset: s.ruleset,
      reason: s.reason,
      distance_along_route_m: Math.round(metresAt(route, s.stopS)),
      projected_time: iso(s.projectedMs),
      legal_deadline: iso(s.deadlineMs),
      deadline_distance_along_route_m: Math.round(metresAt(route, s.limitS)),
      rest_s: s.restS,
      rest_kind: s.restKind,
      ...(usable ? { feasible: stops.length > 0 } : {}),
      suggested_stops: stops.map((c) => {
        const expected = forecastOf(c)
        return {
          id: c.id,
          type: c.type,
          name: c.name,
          distance_along_route_m: Math.round(c.alongM),
          capacity: c.capacity,
          ...(c.available_spots !== undefined ? { available_spots: c.available_spots, as_of: c.as_of ?? null } : {}),
          ...(expected !== undefined ? { expected_available: expected } : {}),
          ...(expected !== undefined && expected.p_full >= LIKELY_FULL
            ? {
                note: `likely full at arrival (${Math.round(expected.p_full * 100)} % chance of no space): listed after the lots likely to have room`
              }
            : {}),
          geometry: c.geometry
        }
      })
    }
  })
