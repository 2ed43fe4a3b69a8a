/** What every hours-of-service regime is and shares: its reasons to stop, its rests, and how its limits are read. */

export type HosReason = "break_required" | "drive_limit" | "duty_window" | "cycle_limit"

/**
 * What a stop is: a break; the daily rest (US 10 h, Canada south 10 h, north 8 h, EU 11 h);
 * a reduced EU rest (9 h); one part of a US sleeper-berth split; the rest of a Canadian day
 * whose limits are spent; 24 h off (Canada cycle 2); a cycle reset or restart; the EU weekly rest.
 */
export type RestKind =
  | "break"
  | "daily_rest"
  | "reduced_daily_rest"
  | "split_berth"
  | "split_off"
  | "day_end"
  | "off_24h"
  | "cycle_reset"
  | "weekly_rest"

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
  readonly rest: (
    reason: HosReason,
    clockMs: number,
    remainingS: number
  ) => { readonly restS: number; readonly kind: RestKind }
}

/**
 * Limits that tie go to the stricter reason: the cycle, then the daily drive limit, then the window, then the break.
 */
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
