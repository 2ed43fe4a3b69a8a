import { countryOfRegion } from "../../domain/Jurisdictions.js"
import type { RouteTiming } from "../engine/RoutingEngine.js"
import type { Regime, RestKind } from "./regime.js"
import { CANADA_RULES, HOS_CYCLES, type HosInput, type HosRulesetName, spent, US_RULES } from "./rulesets.js"

/** Where a route passes from one country to another, in drive seconds from its start. */
export interface CountryChange {
  readonly atS: number
  readonly to: "US" | "CA"
  /** the state or province entered */
  readonly region: string
}

/** Where the rules a driver works under change along the route, and to what. */
export interface RulesSwitch {
  readonly atS: number
  readonly ruleset: HosRulesetName
}

const NORTH_OF_60 = new Set(["YT", "NT", "NU"])

/**
 * The rules of the country a truck is in: a US driver entering Canada works under Canada's
 * (north of 60° in the territories), a Canadian driver in the US under the FMCSA's. The regime
 * asked for holds where it belongs (Canada north or south as chosen); the EU's is a foreign
 * regime and never switches.
 */
export const rulesetIn = (country: "US" | "CA", region: string, asked: HosRulesetName): HosRulesetName => {
  if (asked === "eu") return "eu"
  if (country === "US") return "us"
  if (asked === "canada_north" || asked === "canada_south") return asked
  return NORTH_OF_60.has(region) ? "canada_north" : "canada_south"
}

/** The switches of rules along a route whose country changes at `changes`, the first at its start. */
export const rulesAlong = (
  asked: HosRulesetName,
  start: { readonly country: "US" | "CA"; readonly region: string } | undefined,
  changes: ReadonlyArray<CountryChange>
): Array<RulesSwitch> => {
  const out: Array<RulesSwitch> = []
  let current = start ? rulesetIn(start.country, start.region, asked) : asked
  if (current !== asked) out.push({ atS: 0, ruleset: current })
  for (const c of changes) {
    const next = rulesetIn(c.to, c.region, asked)
    if (next !== current) out.push({ atS: c.atS, ruleset: next })
    current = next
  }
  return out
}

/** The switches of rules along a route, from the regions it passes (none when the engine does not know them). */
export const switchesFor = (route: Pick<RouteTiming, "crossings" | "regions">, asked: HosRulesetName) => {
  const first = route.crossings?.[0]?.from_region ?? route.regions?.[0]?.region
  const country = first === undefined ? undefined : countryOfRegion(first)
  const changes: Array<CountryChange> = []
  for (const c of route.crossings ?? []) {
    const to = countryOfRegion(c.to_region)
    if (to) changes.push({ atS: c.along_s, to, region: c.to_region })
  }
  return rulesAlong(asked, country && first ? { country, region: first } : undefined, changes)
}

const H = 3600
const DAILY: ReadonlySet<RestKind> = new Set([
  "daily_rest",
  "reduced_daily_rest",
  "day_end",
  "off_24h",
  "cycle_reset",
  "weekly_rest"
])

/**
 * What a driver has done since the last rest, kept whatever the regime: what the next regime
 * starts from at a border (its counters are the limits less what is used).
 */
export class DriverLog {
  drivenSinceRest = 0
  /** since the last rest ended: driving and short breaks (the US window, Canada's elapsed time) */
  elapsedSinceRest = 0
  drivenSinceBreak = 0
  drivenTotal = 0

  /** The log at departure, read from the counters the driver sent under the regime they start in. */
  static from(ruleset: HosRulesetName, input: HosInput): DriverLog {
    const log = new DriverLog()
    if (ruleset === "eu") return log
    const [driveS, windowS] =
      ruleset === "us"
        ? [US_RULES.driveS, US_RULES.windowS]
        : [CANADA_RULES[ruleset].driveS, CANADA_RULES[ruleset].elapsedS]
    log.drivenSinceRest = spent(driveS, input.drive_remaining_s)
    log.elapsedSinceRest = Math.max(
      log.drivenSinceRest,
      spent(windowS, input.duty_remaining_s ?? input.elapsed_remaining_s)
    )
    log.drivenSinceBreak = Math.min(log.drivenSinceRest, input.since_break_s ?? log.drivenSinceRest)
    return log
  }

  drove(s: number) {
    this.drivenSinceRest += s
    this.elapsedSinceRest += s
    this.drivenSinceBreak += s
    this.drivenTotal += s
  }

  rested(s: number, kind: RestKind) {
    // a rest long enough to start a new shift under any of the regimes (a sleeper period of 7 h or more too)
    if (DAILY.has(kind) || s >= 7 * H) {
      this.drivenSinceRest = 0
      this.elapsedSinceRest = 0
      this.drivenSinceBreak = 0
    } else {
      this.elapsedSinceRest += s
      this.drivenSinceBreak = 0
    }
  }

  /** The counters the regime entered starts from, with the driver's options that regime has. */
  countersFor(ruleset: HosRulesetName, input: HosInput): HosInput {
    const left = (limitS: number, usedS: number) => Math.max(0, limitS - usedS)
    const cycles: ReadonlyArray<string> = HOS_CYCLES[ruleset]
    const options: HosInput = {
      ...(input.cycle !== undefined && cycles.includes(input.cycle) ? { cycle: input.cycle } : {}),
      ...(ruleset === "us" && input.sleeper_berth !== undefined ? { sleeper_berth: input.sleeper_berth } : {}),
      ...(input.home_terminal_tz !== undefined ? { home_terminal_tz: input.home_terminal_tz } : {}),
      ...(input.day_start_hour !== undefined ? { day_start_hour: input.day_start_hour } : {}),
      // cycles are counted only when the driver gave one; the hours before departure are theirs
      ...(input.cycle_remaining_s !== undefined
        ? { cycle_remaining_s: Math.max(0, input.cycle_remaining_s - this.drivenTotal) }
        : {})
    }
    if (ruleset === "us")
      return {
        ...options,
        drive_remaining_s: left(US_RULES.driveS, this.drivenSinceRest),
        duty_remaining_s: left(US_RULES.windowS, this.elapsedSinceRest),
        since_break_s: this.drivenSinceBreak
      }
    if (ruleset === "eu") return { ...options, ...input }
    const R = CANADA_RULES[ruleset]
    return {
      ...options,
      drive_remaining_s: left(R.driveS, this.drivenSinceRest),
      duty_remaining_s: left(R.dutyS, this.drivenSinceRest),
      elapsed_remaining_s: left(R.elapsedS, this.elapsedSinceRest),
      ...(R.day
        ? {
            day_drive_remaining_s: left(R.day.driveS, this.drivenSinceRest),
            day_duty_remaining_s: left(R.day.dutyS, this.drivenSinceRest)
          }
        : {})
    }
  }
}

/** A regime that keeps the driver's log as it goes. */
export const logged = (regime: Regime, log: DriverLog): Regime => ({
  next: regime.next,
  drive: (s, clockMs) => {
    regime.drive(s, clockMs)
    log.drove(s)
  },
  rest: (reason, clockMs, remainingS) => {
    const r = regime.rest(reason, clockMs, remainingS)
    log.rested(r.restS, r.kind)
    return r
  }
})
