import { canadaRegime } from "./canadaRegime.js"
import { dutyCalendar } from "./dutyCalendar.js"
import { euRegime } from "./euRegime.js"
import type { HosInput, HosRulesetName } from "./rulesets.js"
import type { HosReason, Regime, RestKind } from "./regime.js"
import { usRegime } from "./usRegime.js"
import { DriverLog, logged, type RulesSwitch } from "./countryRules.js"

export type { HosInput } from "./rulesets.js"
export type { HosReason, RestKind } from "./regime.js"

/** One stop of the projection; positions are the route's drive seconds from its start. */
export interface HosStopPlan {
  /** the rules the driver is under there */
  readonly ruleset: HosRulesetName
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

/** a route longer than any truck drives in a month stops here rather than looping on */
const MAX_STOPS = 200

export const regimeOf = (name: HosRulesetName, input: HosInput, departureMs: number): Regime => {
  const calendar = dutyCalendar(input.home_terminal_tz ?? "UTC", input.day_start_hour ?? 0)
  switch (name) {
    case "us":
      return usRegime(input)
    case "eu":
      return euRegime(input, calendar, departureMs)
    default:
      return canadaRegime(name, input, calendar, departureMs)
  }
}

/**
 * Hours-of-service stops along a route of `totalS` seconds' driving, leaving at `departureMs`:
 * drive until the first limit runs out, stop there or where `choose` says, rest as the regime
 * requires, and go on. Counters the driver sent start the projection (absent means fresh);
 * cycle caps apply only when `cycle_remaining_s` is given (SPEC §4.4). At each of `switches`
 * (a border) the driver goes on under the other country's rules, from what the log holds since
 * the last rest; a leg never runs over a border without it.
 */
export const projectHos = (
  totalS: number,
  departureMs: number,
  ruleset: HosRulesetName,
  input: HosInput,
  choose?: StopChooser,
  switches: ReadonlyArray<RulesSwitch> = []
): Array<HosStopPlan> => {
  const log = DriverLog.from(ruleset, input)
  let current = ruleset
  let regime = logged(regimeOf(ruleset, input, departureMs), log)
  let pos = 0
  let clock = departureMs
  let k = 0
  const stops: Array<HosStopPlan> = []
  while (stops.length < MAX_STOPS) {
    const next = switches[k]
    if (next !== undefined && next.atS <= pos) {
      k++
      if (next.ruleset === current) continue
      current = next.ruleset
      regime = logged(regimeOf(current, log.countersFor(current, input), clock), log)
      continue
    }
    const { budgetS, reason } = regime.next(clock)
    if (next !== undefined && next.atS < totalS && pos + budgetS > next.atS) {
      // drive to the border; the rules there decide how much more
      regime.drive(next.atS - pos, clock)
      clock += (next.atS - pos) * 1000
      pos = next.atS
      continue
    }
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
    stops.push({
      ruleset: current,
      reason,
      fromS,
      limitS,
      deadlineMs,
      stopS,
      projectedMs: clock,
      restS,
      restKind: kind
    })
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
