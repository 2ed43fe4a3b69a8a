import type { HosRuleset } from "./rulesets.js"

export type HosReason = "break_required" | "drive_limit" | "duty_window" | "cycle_limit"

/** A driver's counters, seconds remaining; absent means fresh (the full limit), 0 means out of hours. */
export interface HosCounters {
  readonly drive_remaining_s?: number
  readonly duty_remaining_s?: number
  readonly since_break_s?: number
  readonly elapsed_remaining_s?: number
  readonly cycle_remaining_s?: number
}

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
  /** how long the stop lasts: a break, the daily rest or a cycle restart */
  readonly restS: number
}

/** Where between two route positions (drive seconds) to stop, or undefined to stop at the limit. */
export type StopChooser = (fromS: number, limitS: number) => number | undefined

/** a route longer than any truck drives in a month stops here rather than looping on */
const MAX_STOPS = 200

/**
 * Hours-of-service stops along a route of `totalS` seconds' driving, leaving at `departureMs`:
 * drive until the first limit runs out (ties go to the stricter reason: cycle, then the daily
 * drive limit, then the duty or elapsed window, then the break), stop there or where `choose`
 * says, rest as the regime requires, and go on. Breaks run clock windows down; a break the
 * window would close during becomes the daily rest. Cycle caps apply only when the counter is
 * given; after a restart the regime's cycle budget applies.
 */
export const projectHos = (totalS: number, departureMs: number, rules: HosRuleset, counters: HosCounters, choose?: StopChooser): Array<HosStopPlan> => {
  let drive = counters.drive_remaining_s ?? rules.driveS
  let duty = counters.duty_remaining_s ?? rules.dutyS
  let sinceBreak = rules.breakAfterS === null ? Infinity : counters.since_break_s ?? rules.breakAfterS
  let elapsed = rules.elapsedS === null ? Infinity : counters.elapsed_remaining_s ?? rules.elapsedS
  let cycle = counters.cycle_remaining_s ?? Infinity
  let pos = 0
  let clock = departureMs
  const stops: Array<HosStopPlan> = []
  while (stops.length < MAX_STOPS) {
    const limits: ReadonlyArray<readonly [HosReason, number]> = [["cycle_limit", cycle], ["drive_limit", drive], ["duty_window", Math.min(duty, elapsed)], ["break_required", sinceBreak]]
    let reason: HosReason = "drive_limit"
    let budget = Infinity
    for (const [r, left] of limits) {
      if (left < budget) [reason, budget] = [r, left]
    }
    budget = Math.max(0, budget)
    if (budget >= totalS - pos) break
    const limitS = pos + budget
    const picked = budget > 0 ? choose?.(pos, limitS) : undefined
    const stopS = picked !== undefined && picked > pos && picked <= limitS ? picked : limitS
    const driven = stopS - pos
    const deadlineMs = clock + budget * 1000
    clock += driven * 1000
    drive -= driven
    duty -= driven
    sinceBreak -= driven
    elapsed -= driven
    cycle -= driven
    const fromS = pos
    pos = stopS
    const breakOnly = reason === "break_required" && Math.min(duty - (rules.dutyRunsInBreaks ? rules.breakS : 0), elapsed - rules.breakS) > 0
    const restS = reason === "cycle_limit" ? rules.cycleRestartS : breakOnly ? rules.breakS : rules.restS
    stops.push({ reason, fromS, limitS, deadlineMs, stopS, projectedMs: clock, restS })
    clock += restS * 1000
    if (breakOnly) {
      sinceBreak = rules.breakAfterS ?? Infinity
      if (rules.dutyRunsInBreaks) duty -= rules.breakS
      elapsed -= rules.breakS
    } else {
      drive = rules.driveS
      duty = rules.dutyS
      sinceBreak = rules.breakAfterS ?? Infinity
      elapsed = rules.elapsedS ?? Infinity
      if (reason === "cycle_limit") cycle = rules.cycleS
    }
  }
  return stops
}
