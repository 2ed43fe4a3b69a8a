import { type Regime, tightest } from "./regime.js"
import { type HosInput, spent, US_RULES as R } from "./rulesets.js"

/**
 * 49 CFR 395.3 for a property-carrying driver: 11 h of driving and no driving past the 14th
 * hour after coming on duty, both after 10 consecutive hours off; a 30-minute break once 8 h of
 * driving have gone without one; 60 h / 7 days or 70 h / 8 days of duty, restarted by 34 h off.
 *
 * With `sleeper_berth` (395.1(g)(1)(ii)) the 10 h may be taken as a berth period (8 or 7 h) and
 * an off-duty period (2 or 3 h), in either order. Neither counts against the 14 h window; when
 * the second of a pair ends, the 11 and 14 h are counted again from the end of the first. The
 * short period is taken when the break falls due (it is at least 30 minutes, so it is the
 * break too) if the trip needs a daily rest anyway, the berth period at the day's limit; each
 * pairs with the one before it.
 *
 * The projection has no on-duty time but driving, so the cycle counts driving; hours that would
 * roll off the cycle after departure are not given back (the driver's log before departure is
 * not known), which can only plan a restart earlier than needed.
 */
export const usRegime = (input: HosInput): Regime => {
  const cycleOn = input.cycle_remaining_s !== undefined
  const cycleS = R.cycleS[input.cycle === "60_7" ? "60_7" : "70_8"]
  const split = input.sleeper_berth === undefined ? undefined : R.split[input.sleeper_berth]
  let driven = spent(R.driveS, input.drive_remaining_s)
  let window = spent(R.windowS, input.duty_remaining_s)
  let sinceBreak = spent(R.breakAfterS, input.since_break_s)
  let cycleLeft = input.cycle_remaining_s ?? Infinity
  /** the last split period of an unfinished pair chain, and what came after it */
  let lastSplit: "berth" | "off" | undefined
  let after = { driven: 0, window: 0 }

  const fullRest = () => {
    driven = 0
    window = 0
    sinceBreak = 0
    lastSplit = undefined
    after = { driven: 0, window: 0 }
  }
  const splitPeriod = (kind: "berth" | "off") => {
    // a qualifying period is off the 14 h clock; as the second of a pair it recounts from the first's end
    if (lastSplit !== undefined) {
      driven = after.driven
      window = after.window
    }
    sinceBreak = 0
    lastSplit = kind
    after = { driven: 0, window: 0 }
    return {
      restS: kind === "berth" ? split!.longS : split!.shortS,
      kind: kind === "berth" ? ("split_berth" as const) : ("split_off" as const)
    }
  }

  return {
    next: () =>
      tightest([
        ["cycle_limit", cycleLeft],
        ["drive_limit", R.driveS - driven],
        ["duty_window", R.windowS - window],
        ["break_required", R.breakAfterS - sinceBreak]
      ]),
    drive: (s) => {
      driven += s
      window += s
      sinceBreak += s
      cycleLeft -= s
      after = { driven: after.driven + s, window: after.window + s }
    },
    rest: (reason, _clock, remainingS) => {
      if (reason === "cycle_limit") {
        fullRest()
        if (cycleOn) cycleLeft = cycleS
        return { restS: R.restartS, kind: "cycle_reset" }
      }
      if (split !== undefined) {
        // each period pairs with the one before it; a chain begins with the short one at a break
        // when the trip needs a daily rest anyway (else the plain 30 minutes arrive sooner)
        if (lastSplit !== undefined) return splitPeriod(lastSplit === "berth" ? "off" : "berth")
        if (reason === "break_required" && remainingS > Math.min(R.driveS - driven, R.windowS - window - R.breakS))
          return splitPeriod("off")
      }
      if (reason === "break_required" && Math.min(R.windowS - window - R.breakS, R.driveS - driven) > 0) {
        // off duty, so on the 14 h clock; a break the window would close during becomes the daily rest
        window += R.breakS
        after = { ...after, window: after.window + R.breakS }
        sinceBreak = 0
        return { restS: R.breakS, kind: "break" }
      }
      fullRest()
      return { restS: R.restS, kind: "daily_rest" }
    }
  }
}
