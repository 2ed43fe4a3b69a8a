/** The hours-of-service regimes offered (SPEC §4.4); `aetr` is planned. */
export const HOS_RULESETS = ["us", "canada_south", "canada_north", "eu"] as const

export type HosRulesetName = (typeof HOS_RULESETS)[number]

const H = 3600

/**
 * One hours-of-service regime as the projection applies it: limits in seconds. Counters a
 * regime does not have are null; the projection ignores a request's counter for them.
 */
export interface HosRuleset {
  readonly name: HosRulesetName
  readonly regulation: string
  /** driving allowed before the daily rest */
  readonly driveS: number
  /** the duty window: US 14 h on the clock, Canada on-duty hours, EU the 13 h left of a 24 h day after 11 h rest */
  readonly dutyS: number
  /** whether an off-duty break runs the duty window down (a clock window) or not (on-duty hours) */
  readonly dutyRunsInBreaks: boolean
  /** Canada: hours elapsed since the last 8 consecutive hours off */
  readonly elapsedS: number | null
  /** driving allowed before a break is required, and the break */
  readonly breakAfterS: number | null
  readonly breakS: number
  /** the daily rest that restores driving, duty and elapsed time */
  readonly restS: number
  /** the off-duty period that restarts the cycle, and the cycle's driving or on-duty budget after it */
  readonly cycleRestartS: number
  readonly cycleS: number
}

export const HOS_RULESETS_TABLE: Record<HosRulesetName, HosRuleset> = {
  // 49 CFR 395.3(a): 10 h off; 11 h driving; no driving after the 14th hour; 30 min break after
  // 8 h driving (any non-driving status); 395.3(b) 60/70 h, 395.3(c) 34 h restart
  us: { name: "us", regulation: "49 CFR 395.3 (property-carrying)", driveS: 11 * H, dutyS: 14 * H, dutyRunsInBreaks: true, elapsedS: null, breakAfterS: 8 * H, breakS: 0.5 * H, restS: 10 * H, cycleRestartS: 34 * H, cycleS: 70 * H },
  // SOR/2005-313 s.12–13: 13 h driving, 14 h on-duty, 16 h elapsed after 8 consecutive hours
  // off; s.14 10 h off per day (the projection's rest holds the 8 consecutive); s.26/28 cycle 1
  // 70 h / 7 days, 36 h reset
  canada_south: { name: "canada_south", regulation: "SOR/2005-313 (south of 60°N)", driveS: 13 * H, dutyS: 14 * H, dutyRunsInBreaks: false, elapsedS: 16 * H, breakAfterS: null, breakS: 0, restS: 10 * H, cycleRestartS: 36 * H, cycleS: 70 * H },
  // SOR/2005-313 s.39: north of 60°N 15 h driving, 18 h on-duty, no driving after 20 h elapsed
  // following 8 consecutive hours off; 8 h off resets
  canada_north: { name: "canada_north", regulation: "SOR/2005-313 s.39 (north of 60°N)", driveS: 15 * H, dutyS: 18 * H, dutyRunsInBreaks: false, elapsedS: 20 * H, breakAfterS: null, breakS: 0, restS: 8 * H, cycleRestartS: 36 * H, cycleS: 70 * H },
  // Regulation (EC) 561/2006: art. 6 9 h daily driving; art. 7 45 min break after 4.5 h; art. 8
  // 11 h daily rest within 24 h of the last (so 13 h between rests); 56 h weekly, 45 h weekly rest
  eu: { name: "eu", regulation: "Regulation (EC) No 561/2006", driveS: 9 * H, dutyS: 13 * H, dutyRunsInBreaks: true, elapsedS: null, breakAfterS: 4.5 * H, breakS: 0.75 * H, restS: 11 * H, cycleRestartS: 45 * H, cycleS: 56 * H }
}
