import { type DutyCalendar, spreadOverPeriods } from "./dutyCalendar.js"
import { type Regime, type RestKind, tightest } from "./regime.js"
import { EU_RULES as R, type HosInput, spent } from "./rulesets.js"

/**
 * Regulation (EC) No 561/2006: 9 h of driving between two daily rests (10 h at most twice in a
 * fixed week with `extended_days`, art. 6(1)); a 45-minute break after 4.5 h (art. 7); the daily
 * rest, 11 h (9 h at most three times between two weekly rests with `reduced_rests`, art. 8(4)),
 * ending within 24 h of the end of the last (art. 8(2)), so it begins within 13 h (15 h when a
 * reduced rest is left). With `cycle_remaining_s` (this fixed week's driving left) also 56 h in
 * a fixed week and 90 h in two (art. 6(2)-(3)): when they run out the driver takes a regular
 * weekly rest of 45 h (art. 8(6)), longer if the week's driving is not back by then.
 * `fortnight_remaining_s` gives what is left of the 90 h this week; without it last week's
 * driving is taken as not binding this week, and from the next week on the 90 h are counted
 * from the projection's own weeks. Weeks run Monday 00:00 to Sunday 24:00 in the home
 * terminal's zone. The six-day limit between weekly rests (art. 8(6)) is not modelled.
 */
export const euRegime = (input: HosInput, calendar: DutyCalendar, departureMs: number): Regime => {
  const cycleOn = input.cycle_remaining_s !== undefined
  const extendedPerWeek = input.extended_days === true ? R.extendedPerWeek : 0
  const reducedPerWeek = input.reduced_rests === true ? R.reducedPerWeek : 0
  let dayDriven = spent(R.driveS, input.drive_remaining_s)
  let window = spent(R.periodS - R.restS, input.duty_remaining_s)
  let sinceBreak = spent(R.breakAfterS, input.since_break_s)
  let reducedLeft = Math.min(reducedPerWeek, input.reduced_rests_left ?? reducedPerWeek)
  let extendedToday = dayDriven > R.driveS
  let weekDriven = spent(R.weekS, input.cycle_remaining_s)
  let lastWeekDriven = Math.max(0, R.fortnightS - weekDriven - (input.fortnight_remaining_s ?? R.fortnightS))
  let weekEnd = calendar.nextWeekStart(departureMs)
  /** 10 h days left per fixed week (by the week's end); a week not in it has all of them */
  const extendedLeft = new Map([[weekEnd, Math.min(extendedPerWeek, input.extended_days_left ?? extendedPerWeek)]])
  /**
   * The end of the fixed week the current day's driving began in: a 10 h day counts against that
   * week even when it runs past Monday 00:00 (undefined until the day's first driving).
   */
  let dayWeekEnd: number | undefined

  /** moves on to the fixed week holding t; when it ends */
  const rollWeeks = (t: number) => {
    while (weekEnd <= t) {
      weekEnd = calendar.nextWeekStart(weekEnd)
      lastWeekDriven = weekDriven
      weekDriven = 0
    }
    return weekEnd
  }
  /** 10 h days left in the week the current day began in (this one, before its first driving) */
  const dayExtendedLeft = () => extendedLeft.get(dayWeekEnd ?? weekEnd) ?? extendedPerWeek
  const weekLeft = (driven: number, last: number) => Math.min(R.weekS - driven, R.fortnightS - last - driven)
  const newDay = () => {
    dayDriven = 0
    window = 0
    sinceBreak = 0
    extendedToday = false
    dayWeekEnd = undefined
  }
  const dailyLimit = () => (extendedToday || dayExtendedLeft() > 0 ? R.extendedDriveS : R.driveS)
  /** the daily rest must end within 24 h of the last: the window shrinks by the rest that is left to take */
  const windowLeft = () => R.periodS - (reducedLeft > 0 ? R.reducedRestS : R.restS) - window

  return {
    next: (clock) => {
      rollWeeks(clock)
      const toWeekEndS = (weekEnd - clock) / 1000
      const thisWeek = weekLeft(weekDriven, lastWeekDriven)
      // the fixed week can end during the driving: the next week's allowance follows on
      const cycle = !cycleOn
        ? Infinity
        : thisWeek <= toWeekEndS
          ? thisWeek
          : toWeekEndS + weekLeft(0, weekDriven + toWeekEndS)
      return tightest([
        ["cycle_limit", cycle],
        ["drive_limit", dailyLimit() - dayDriven],
        ["duty_window", windowLeft()],
        ["break_required", R.breakAfterS - sinceBreak]
      ])
    },
    drive: (s, clock) => {
      if (dayWeekEnd === undefined) dayWeekEnd = rollWeeks(clock)
      spreadOverPeriods(clock, s, rollWeeks, (inWeek) => {
        weekDriven += inWeek
      })
      dayDriven += s
      window += s
      sinceBreak += s
      if (!extendedToday && dayDriven > R.driveS) {
        extendedToday = true
        extendedLeft.set(dayWeekEnd!, dayExtendedLeft() - 1)
      }
    },
    rest: (reason, clock): { restS: number; kind: RestKind } => {
      rollWeeks(clock)
      if (reason === "cycle_limit") {
        newDay()
        reducedLeft = reducedPerWeek
        return { restS: Math.max(R.weeklyRestS, (weekEnd - clock) / 1000), kind: "weekly_rest" }
      }
      if (reason === "break_required" && Math.min(windowLeft() - R.breakS, dailyLimit() - dayDriven) > 0) {
        window += R.breakS
        sinceBreak = 0
        return { restS: R.breakS, kind: "break" }
      }
      const reduced = reducedLeft > 0
      newDay()
      if (reduced) {
        reducedLeft -= 1
        return { restS: R.reducedRestS, kind: "reduced_daily_rest" }
      }
      return { restS: R.restS, kind: "daily_rest" }
    }
  }
}
