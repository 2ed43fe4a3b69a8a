import { canadaRegime } from "./canadaRegime.js"
import { dutyCalendar } from "./dutyCalendar.js"
import { euRegime } from "./euRegime.js"
import type { HosInput, HosRulesetName } from "./rulesets.js"
import { usRegime } from "./usRegime.js"

export type { HosInput } from "./rulesets.js"

export type HosReason = "break_required" | "drive_limit" | "duty_window" | "cycle_limit"

/**
 * What a stop is: a break; the daily rest (US 10 h, Canada south 10 h, north 8 h, EU 11 h);
 * a reduced EU rest (9 h); one part of a US sleeper-berth split; the rest of a Canadian day
 * whose limits are spent; 24 h off (Canada cycle 2); a cycle reset or restart; the EU weekly rest.
 */
export type RestKind = "break" | "daily_rest" | "reduced_daily_rest" | "split_berth" | "split_off" | "day_end" | "off_24h" | "cycle_reset" | "weekly_rest"

/** One stop of the projection; positions are the route's drive seconds from its start. */
export interface HosStopPlan {
  readonly reason: HosReason
  /** where the leg to this stop began (the previous stop, or the start) */
  readonly fromS: number
  /** where the binding limit runs out, and when */
  readonly limitS: number
  readonly deadlineMs: number
  /** where and when the driver stops: the limit, or an earlier place the chooser picked */
  readonly stopS: number
  readonly projectedMs: number
  /** how long the stop lasts, and what it is */
  readonly restS: number
  readonly restKind: RestKind
}

/** Where between two route positions (drive seconds) to stop, or undefined to stop at the limit. */
export type StopChooser = (fromS: number, limitS: number) => number | undefined

/**
 * One regime's bookkeeping. `next` says how much driving the rules allow from now and which
 * limit ends it; `drive` and `rest` move the counters on (the clock is when the driving or the
 * rest begins). A regime never allows driving past a limit; at a stop it picks the rest that
 * lets driving go on soonest under its rules.
 */
export interface Regime {
  readonly next: (clockMs: number) => { readonly budgetS: number; readonly reason: HosReason }
  readonly drive: (seconds: number, clockMs: number) => void
  /** `remainingS`: the route's driving still ahead, so a regime can skip a rest the trip does not need */
  readonly rest: (reason: HosReason, clockMs: number, remainingS: number) => { readonly restS: number; readonly kind: RestKind }
}

/** a route longer than any truck drives in a month stops here rather than looping on */
const MAX_STOPS = 200

/** Limits that tie go to the stricter reason: the cycle, then the daily drive limit, then the window, then the break. */
export const REASON_ORDER: ReadonlyArray<HosReason> = ["cycle_limit", "drive_limit", "duty_window", "break_required"]

/** The least of a regime's limits, ties to the stricter reason. */
export const tightest = (limits: ReadonlyArray<readonly [HosReason, number]>) => {
  let reason: HosReason = "drive_limit"
  let budgetS = Infinity
  for (const r of REASON_ORDER) {
    for (const [name, left] of limits) if (name === r && left < budgetS) [reason, budgetS] = [r, left]
  }
  return { budgetS: Math.max(0, budgetS), reason }
}

export const regimeOf = (name: HosRulesetName, input: HosInput, departureMs: number): Regime => {
  const calendar = dutyCalendar(input.home_terminal_tz ?? "UTC", input.day_start_hour ?? 0)
  switch (name) {
    case "us": return usRegime(input)
    case "eu": return euRegime(input, calendar, departureMs)
    default: return canadaRegime(name, input, calendar, departureMs)
  }
}

/**
 * Hours-of-service stops along a route of `totalS` seconds' driving, leaving at `departureMs`:
 * drive until the first limit runs out, stop there or where `choose` says, rest as the regime
 * requires, and go on. Counters the driver sent start the projection (absent means fresh);
 * cycle caps apply only when `cycle_remaining_s` is given (SPEC §4.4).
 */
export const projectHos = (totalS: number, departureMs: number, ruleset: HosRulesetName, input: HosInput, choose?: StopChooser): Array<HosStopPlan> => {
  const regime = regimeOf(ruleset, input, departureMs)
  let pos = 0
  let clock = departureMs
  const stops: Array<HosStopPlan> = []
  while (stops.length < MAX_STOPS) {
    const { budgetS, reason } = regime.next(clock)
    if (budgetS >= totalS - pos) break
    const limitS = pos + budgetS
    const picked = budgetS > 0 ? choose?.(pos, limitS) : undefined
    const stopS = picked !== undefined && picked > pos && picked <= limitS ? picked : limitS
    const deadlineMs = clock + budgetS * 1000
    regime.drive(stopS - pos, clock)
    clock += (stopS - pos) * 1000
    const fromS = pos
    pos = stopS
    const { restS, kind } = regime.rest(reason, clock, totalS - pos)
    stops.push({ reason, fromS, limitS, deadlineMs, stopS, projectedMs: clock, restS, restKind: kind })
    clock += restS * 1000
  }
  return stops
}

/**
 * When the truck reaches a point `driveS` seconds of driving along the route, counting the
 * rests planned before it (a rest at the point itself comes after arriving).
 */
export const arrivalWithRests = (stops: ReadonlyArray<HosStopPlan>, departureMs: number) => (driveS: number) => {
  let last: HosStopPlan | undefined
  for (const s of stops) {
    if (s.stopS < driveS) last = s
    else break
  }
  return last === undefined ? departureMs + driveS * 1000 : last.projectedMs + (last.restS + driveS - last.stopS) * 1000
}
