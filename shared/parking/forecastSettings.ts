/** The parking forecaster's settings, chosen by measurement (docs/DECISIONS.md "Truck parking forecast"). */
export interface ForecastSettings {
  /** how many same-weekday days count as much as the weekday/weekend profile */
  readonly weekdayShrink: number
  /** half-life of a day's weight in the profile, in days */
  readonly halfLifeDays: number
  /** the slot-neighbour kernel (centre first), smoothing a profile across adjacent slots */
  readonly kernel: ReadonlyArray<number>
  /** reweighting passes that take the profile from a mean toward a median (0: the mean) */
  readonly robustPasses: number
  /** the smallest distance (spaces) a reweighting pass divides by */
  readonly robustFloor: number
  /** how strongly a site's own coefficients are pulled toward the pooled ones (a ridge weight) */
  readonly siteShrink: number
  /** how strongly a phase's coefficients are pulled toward the site's */
  readonly phaseShrink: number
  /** the longest horizon (hours) fitted per phase */
  readonly phaseUpToH: number
  /**
   * the error quantiles read as p10 and p90: a little wider than 0.1 and 0.9, since the errors
   * they come from were made with coefficients fitted on the same days
   */
  readonly band: readonly [number, number]
  /** the fewest counted days a site needs before it is forecast */
  readonly minDays: number
}

export const DEFAULT_SETTINGS: ForecastSettings = {
  weekdayShrink: 2,
  halfLifeDays: 14,
  kernel: [1, 0.6, 0.25],
  robustPasses: 0,
  robustFloor: 2,
  siteShrink: 2000,
  phaseShrink: 200,
  phaseUpToH: 1,
  band: [0.08, 0.92],
  minDays: 5
}
