import { type DutyCalendar, spreadOverPeriods } from "./dutyCalendar.js"
import type { HosReason, Regime, RestKind } from "./regime.js"
import { REASON_ORDER } from "./regime.js"
import { CANADA_RULES, type HosInput, spent } from "./rulesets.js"

type Scope = "shift" | "day" | "cycle" | "before24"

/**
 * SOR/2005-313. The work shift: no driving after 13 h of driving, 14 h on duty or 16 h elapsed
 * since the last 8 consecutive hours off (north of 60°: 15, 18 and 20 h, s.39). South of 60°
 * also the day, 24 h from the hour the carrier designates (s.12, s.14): at most 13 h of driving
 * and 14 h on duty in it, so at least 10 h off; when a day's limits are spent the driver is off
 * until the next day begins. Cycle 1 (70 h / 7 days, north 80 h; reset by 36 h off) or cycle 2
 * (120 h / 14 days, with 24 h off before 70 h, north 80 h; reset by 72 h off), modelled when
 * `cycle_remaining_s` is given.
 *
 * The projection's daily rest south of 60° is 10 consecutive hours: the shift's 8 and the day's
 * other 2 in one block (s.14(3) lets the 2 h be taken apart from the 8; the projection does not
 * need to). The projection has no on-duty time but driving, so on-duty counts equal driving.
 */
export const canadaRegime = (
  name: "canada_south" | "canada_north",
  input: HosInput,
  calendar: DutyCalendar,
  departureMs: number
): Regime => {
  const R = CANADA_RULES[name]
  const cycleOn = input.cycle_remaining_s !== undefined
  const cycle = input.cycle === "cycle_2" ? R.cycle.cycle_2 : R.cycle.cycle_1
  const before24S: number | undefined = input.cycle === "cycle_2" ? R.cycle.cycle_2.before24S : undefined
  let driven = spent(R.driveS, input.drive_remaining_s)
  let duty = spent(R.dutyS, input.duty_remaining_s)
  let elapsed = spent(R.elapsedS, input.elapsed_remaining_s)
  let cycleLeft = input.cycle_remaining_s ?? Infinity
  let before24Left =
    cycleOn && before24S !== undefined ? Math.min(before24S, input.before_24h_off_remaining_s ?? before24S) : Infinity
  const day = R.day
  let dayEnd = calendar.nextDayStart(departureMs)
  let dayDriven = day ? spent(day.driveS, input.day_drive_remaining_s) : 0
  let dayDuty = day ? spent(day.dutyS, input.day_duty_remaining_s) : 0
  let binding: Scope = "shift"

  /** moves on to the day holding t; when it ends */
  const rollDays = (t: number) => {
    while (dayEnd <= t) {
      dayEnd = calendar.nextDayStart(dayEnd)
      dayDriven = 0
      dayDuty = 0
    }
    return dayEnd
  }
  const newShift = () => {
    driven = 0
    duty = 0
    elapsed = 0
  }
  /** a day's limit as driving allowed from now: within today, or past midnight into tomorrow's */
  const dayBudget = (used: number, limit: number, toEndS: number) =>
    limit - used <= toEndS ? limit - used : toEndS + limit

  return {
    next: (clock) => {
      rollDays(clock)
      const limits: Array<readonly [HosReason, number, Scope]> = [
        ["cycle_limit", cycleLeft, "cycle"],
        ["cycle_limit", before24Left, "before24"],
        ["drive_limit", R.driveS - driven, "shift"],
        ["duty_window", Math.min(R.dutyS - duty, R.elapsedS - elapsed), "shift"]
      ]
      if (day) {
        const toEndS = (dayEnd - clock) / 1000
        limits.push(
          ["drive_limit", dayBudget(dayDriven, day.driveS, toEndS), "day"],
          ["duty_window", dayBudget(dayDuty, day.dutyS, toEndS), "day"]
        )
      }
      // ties: the stricter reason; within one reason the shift before the day (its rest covers both)
      let best = limits[0]
      for (const l of limits) {
        if (l[1] < best[1] || (l[1] === best[1] && REASON_ORDER.indexOf(l[0]) < REASON_ORDER.indexOf(best[0]))) best = l
      }
      binding = best[2]
      return { budgetS: Math.max(0, best[1]), reason: best[0] }
    },
    drive: (s, clock) => {
      spreadOverPeriods(clock, s, rollDays, (inDay) => {
        dayDriven += inDay
        dayDuty += inDay
      })
      driven += s
      duty += s
      elapsed += s
      cycleLeft -= s
      before24Left -= s
    },
    rest: (_reason, clock): { restS: number; kind: RestKind } => {
      rollDays(clock)
      if (binding === "cycle") {
        newShift()
        cycleLeft = cycle.budgetS
        before24Left = before24S ?? Infinity
        return { restS: cycle.resetS, kind: "cycle_reset" }
      }
      if (binding === "before24") {
        newShift()
        before24Left = before24S ?? Infinity
        return { restS: 24 * 3600, kind: "off_24h" }
      }
      const untilDayEndS = (dayEnd - clock) / 1000
      const daySpent = day !== null && (dayDriven >= day.driveS || dayDuty >= day.dutyS)
      if (binding === "day" && day !== null) {
        // off until the next day: a shift goes on through a short wait, 8 h or more begin a new one
        const shiftGoesOn =
          untilDayEndS < R.shiftResetS &&
          R.driveS - driven > 0 &&
          R.dutyS - duty > 0 &&
          R.elapsedS - elapsed - untilDayEndS > 0
        if (shiftGoesOn) {
          elapsed += untilDayEndS
          return { restS: untilDayEndS, kind: "day_end" }
        }
        newShift()
        return untilDayEndS >= R.shiftResetS
          ? { restS: untilDayEndS, kind: "day_end" }
          : { restS: R.restS, kind: "daily_rest" }
      }
      newShift()
      // a rest that would end inside a day whose limits are spent lasts until that day ends
      return { restS: daySpent ? Math.max(R.restS, untilDayEndS) : R.restS, kind: "daily_rest" }
    }
  }
}
