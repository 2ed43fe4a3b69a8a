/** The hours-of-service regimes offered (SPEC §4.4); `aetr` is planned. */
export const HOS_RULESETS = ["us", "canada_south", "canada_north", "eu"] as const

export type HosRulesetName = (typeof HOS_RULESETS)[number]

/** The cycles a driver may be on: US 60 h / 7 days or 70 h / 8 days; Canada cycle 1 (7 days) or 2 (14 days). */
export const HOS_CYCLES = {
  us: ["70_8", "60_7"],
  canada_south: ["cycle_1", "cycle_2"],
  canada_north: ["cycle_1", "cycle_2"],
  eu: []
} as const satisfies Record<HosRulesetName, ReadonlyArray<string>>
export const ALL_HOS_CYCLES = ["70_8", "60_7", "cycle_1", "cycle_2"] as const
/** US sleeper-berth splits of the 10 h rest (49 CFR 395.1(g)(1)(ii)): hours in the berth / hours off. */
export const SLEEPER_SPLITS = ["8_2", "7_3"] as const

/** What a driver tells the projection: counters (seconds remaining) and the regime's options. */
export interface HosInput {
  readonly drive_remaining_s?: number
  readonly duty_remaining_s?: number
  readonly since_break_s?: number
  readonly elapsed_remaining_s?: number
  readonly cycle_remaining_s?: number
  /** Canada south: driving and on-duty time left in the current day (s.12) */
  readonly day_drive_remaining_s?: number
  readonly day_duty_remaining_s?: number
  /** Canada cycle 2: on-duty time left before 24 consecutive hours off are due (s.27(b)) */
  readonly before_24h_off_remaining_s?: number
  /** EU: driving left in the two fixed weeks, this and the last (art. 6(3)) */
  readonly fortnight_remaining_s?: number
  /** EU: 10 h days left this week (art. 6(1)), reduced daily rests left before the weekly rest (art. 8(4)) */
  readonly extended_days_left?: number
  readonly reduced_rests_left?: number
  readonly cycle?: (typeof ALL_HOS_CYCLES)[number]
  readonly sleeper_berth?: (typeof SLEEPER_SPLITS)[number]
  readonly extended_days?: boolean
  readonly reduced_rests?: boolean
  /** the zone and hour the driver's day (Canada) and week (EU) begin in; UTC and 0 by default */
  readonly home_terminal_tz?: string
  readonly day_start_hour?: number
}

const H = 3600

/** Seconds of a limit already used, from a counter of seconds remaining (absent: fresh; never more than the limit). */
export const spent = (limitS: number, remainingS: number | undefined) => limitS - Math.min(limitS, remainingS ?? limitS)

/** The regulation each regime applies and its limits, in seconds; the sections cited where they are used. */
export const US_RULES = {
  regulation: "49 CFR 395.3 (property-carrying)",
  driveS: 11 * H,
  windowS: 14 * H,
  breakAfterS: 8 * H,
  breakS: 0.5 * H,
  restS: 10 * H,
  restartS: 34 * H,
  cycleS: { "70_8": 70 * H, "60_7": 60 * H },
  split: { "8_2": { longS: 8 * H, shortS: 2 * H }, "7_3": { longS: 7 * H, shortS: 3 * H } }
} as const

export const CANADA_RULES = {
  canada_south: {
    regulation: "SOR/2005-313 (south of 60°N)",
    // s.13: no driving after 13 h driving, 14 h on duty or 16 h elapsed since 8 consecutive hours off
    driveS: 13 * H,
    dutyS: 14 * H,
    elapsedS: 16 * H,
    shiftResetS: 8 * H,
    // s.12, s.14: 13 h driving and 14 h on duty in a day, 10 h off in a day; the projection rests 10 h at a time
    day: { driveS: 13 * H, dutyS: 14 * H },
    restS: 10 * H,
    // s.26–29: cycle 1 70 h / 7 days, reset 36 h; cycle 2 120 h / 14 days, 24 h off before 70 h, reset 72 h
    cycle: {
      cycle_1: { budgetS: 70 * H, resetS: 36 * H },
      cycle_2: { budgetS: 120 * H, resetS: 72 * H, before24S: 70 * H }
    }
  },
  canada_north: {
    regulation: "SOR/2005-313 s.37–54 (north of 60°N)",
    // s.39: no driving after 15 h driving, 18 h on duty or 20 h elapsed; then 8 consecutive hours off; no daily limits
    driveS: 15 * H,
    dutyS: 18 * H,
    elapsedS: 20 * H,
    shiftResetS: 8 * H,
    day: null,
    restS: 8 * H,
    // s.52–54: cycle 1 80 h / 7 days, reset 36 h; cycle 2 120 h / 14 days, 24 h off before 80 h, reset 72 h
    cycle: {
      cycle_1: { budgetS: 80 * H, resetS: 36 * H },
      cycle_2: { budgetS: 120 * H, resetS: 72 * H, before24S: 80 * H }
    }
  }
} as const

export const EU_RULES = {
  regulation: "Regulation (EC) No 561/2006",
  // art. 6(1): 9 h a day, 10 h at most twice a week; art. 7: 45 min after 4.5 h
  driveS: 9 * H,
  extendedDriveS: 10 * H,
  extendedPerWeek: 2,
  breakAfterS: 4.5 * H,
  breakS: 0.75 * H,
  // art. 8(2): the daily rest ends within 24 h of the last; 11 h, or 9 h at most three times between weekly rests
  periodS: 24 * H,
  restS: 11 * H,
  reducedRestS: 9 * H,
  reducedPerWeek: 3,
  // art. 6(2)-(3): 56 h in a fixed week, 90 h in two; art. 8(6): a regular weekly rest of 45 h
  weekS: 56 * H,
  fortnightS: 90 * H,
  weeklyRestS: 45 * H
} as const

/**
 * Options chosen for another regime, named so a 400 can say which: a cycle the regime does not
 * have, a sleeper split outside the US, the EU's options elsewhere. (Counters of another regime
 * are ignored, as they always were: a driver's log app may send them all.)
 */
export const hosInputProblems = (name: HosRulesetName, h: HosInput): Array<string> => {
  const problems: Array<string> = []
  const cycles: ReadonlyArray<string> = HOS_CYCLES[name]
  if (h.cycle !== undefined && !cycles.includes(h.cycle)) {
    problems.push(
      cycles.length === 0
        ? `truck.hos.cycle: ${name} has no cycle to choose`
        : `truck.hos.cycle: ${name} takes ${cycles.join(" or ")}`
    )
  }
  const only = (field: "sleeper_berth" | "extended_days" | "reduced_rests", where: HosRulesetName) => {
    if (h[field] !== undefined && name !== where)
      problems.push(`truck.hos.${field}: applies to ${where} only, not ${name}`)
  }
  only("sleeper_berth", "us")
  only("extended_days", "eu")
  only("reduced_rests", "eu")
  return problems
}
