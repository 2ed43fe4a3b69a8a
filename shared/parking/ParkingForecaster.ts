import { DEFAULT_SETTINGS, type ForecastSettings } from "./forecastSettings.js"
import { lad, quantilesOf } from "./lad.js"
import { localSlot } from "./localSlot.js"
import type { ParkingReading } from "./readings.js"
import { cellsOf, profileAt, profileOf, valueOf } from "./siteProfile.js"

export { DEFAULT_SETTINGS, type ForecastSettings } from "./forecastSettings.js"

/**
 * Free truck-parking spaces forecast for a site from 15 minutes to 24 hours ahead.
 *
 * A site's week has a shape (its profile: the mean count of each local 15-minute slot, by weekday
 * shrunk toward weekday/weekend, recent weeks weighing more); on any day the count runs above or
 * below that shape, and how long such a departure lasts is what the horizon coefficients say. The
 * median forecast is the profile at the target plus the recent departure (last 45 minutes and last
 * 24 hours) times per-horizon coefficients fitted by least absolute deviation on the fitting data,
 * each day's own counts held out of the profile it is judged against. The band and the chance of
 * a full lot come from the same held-out errors, scaled per site.
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** The horizons (hours) coefficients and error tables are fitted at; others are interpolated. */
export const HORIZONS_H = [0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24] as const
export const MIN_HORIZON_H = 0.25
export const MAX_HORIZON_H = 24

/** Error quantiles kept per horizon (of the site-scaled held-out error), for the band and p_full. */
const QUANTILES = Array.from({ length: 99 }, (_, i) => (i + 1) / 100)

/** A site's fitted shape: mean free spaces by weekday (0 Sunday) × local 15-minute slot. */
export interface SiteModel {
  readonly site: string
  readonly capacity: number | null
  /** 7 × 96 profile values, weekday-major */
  readonly profile: ReadonlyArray<number>
  /** the site's typical held-out error (mean absolute), the unit its error quantiles are scaled by */
  readonly scale: number
  /** what "LOW" stands for at this site: half the smallest count it has published */
  readonly lowValue: number
  /** the held-out mean absolute error of the median forecast by horizon, for a reader to judge it by */
  readonly mae: ReadonlyArray<number>
  /** per horizon and phase: the site's own coefficients (see ParkingModel.coefficients) */
  readonly coefficients: ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>
  readonly days: number
  readonly readings: number
}

export interface ParkingModel {
  readonly version: 1
  readonly fittedAt: string
  /** the newest reading fitted on */
  readonly dataUntil: string
  readonly settings: ForecastSettings
  readonly horizons: ReadonlyArray<number>
  /** per horizon: [intercept, newest departure, mean departures over 45 min, 2 h, 6 h, 24 h, filling, clearing] */
  readonly coefficients: ReadonlyArray<ReadonlyArray<number>>
  /** per horizon: quantiles of the site-scaled held-out error */
  readonly errorQuantiles: ReadonlyArray<ReadonlyArray<number>>
  readonly sites: Readonly<Record<string, SiteModel>>
}

export interface ParkingForecast {
  readonly p10: number
  readonly p50: number
  readonly p90: number
  /** the chance the lot has no free space */
  readonly p_full: number
}

// ---------------------------------------------------------------------------------------------
// Departures from the profile, as known at the moment of forecasting

interface Point {
  readonly at: number
  readonly value: number
  readonly trend: ParkingReading["trend"]
  /** the local day, where the profile a point is judged against leaves that day out */
  readonly day?: number
}

/** The windows (minutes back from the forecast's issue) whose mean departures are the features. */
const WINDOWS_MIN = [45, 120, 360, 1440] as const

interface Departure {
  /** the newest reading's departure (the 45-minute mean when nothing was read in 45 minutes) */
  readonly latest: number
  /** the mean departure over each of WINDOWS_MIN, a narrower one falling back to the next wider */
  readonly means: ReadonlyArray<number>
  readonly trend: ParkingReading["trend"]
}

/**
 * How far the counts up to `at` ran from the profile (`recent` oldest first; later ones are
 * skipped): the newest reading's departure and the mean over each window. Averaging over two and
 * six hours matters where a site's counter drifts and is reset every few hours. Undefined when
 * nothing was read for a day.
 */
const departureOf = (
  recent: ReadonlyArray<Point>,
  profileFor: (p: Point) => number,
  at: number
): Departure | undefined => {
  const sums = WINDOWS_MIN.map(() => 0)
  const ns = WINDOWS_MIN.map(() => 0)
  let latest = NaN
  let trend: ParkingReading["trend"] = null
  for (let i = recent.length - 1; i >= 0; i--) {
    const r = recent[i]
    if (r.at > at) continue
    if (r.at <= at - DAY) break
    const p = profileFor(r)
    if (Number.isNaN(p)) continue
    const d = r.value - p
    const age = at - r.at
    if (Number.isNaN(latest) && age < WINDOWS_MIN[0] * MINUTE) {
      latest = d
      trend = r.trend
    }
    for (let w = 0; w < WINDOWS_MIN.length; w++) {
      if (age < WINDOWS_MIN[w] * MINUTE) {
        sums[w] += d
        ns[w]++
      }
    }
  }
  const widest = WINDOWS_MIN.length - 1
  if (ns[widest] === 0) return undefined
  const means = new Array<number>(WINDOWS_MIN.length)
  for (let w = widest; w >= 0; w--) means[w] = ns[w] > 0 ? sums[w] / ns[w] : means[w + 1]
  return { latest: Number.isNaN(latest) ? means[0] : latest, means, trend }
}

/** Where a slot falls in a two-hour cycle (eight 15-minute phases). */
const PHASES = 8
const phaseOf = (slot: number) => slot % PHASES

const featuresOf = (d: Departure | undefined) =>
  d === undefined
    ? [1, 0, ...WINDOWS_MIN.map(() => 0), 0, 0]
    : [1, d.latest, ...d.means, d.trend === "FILLING" ? 1 : 0, d.trend === "CLEARING" ? 1 : 0]

// ---------------------------------------------------------------------------------------------
// Fitting

export interface FitProgress {
  (message: string): void
}

/** A model from history readings: every site with at least `minDays` days of counts. */
export const fitParkingModel = (
  history: ReadonlyArray<ParkingReading>,
  options: {
    /** when the fit is made (ms), stamped on the model */
    readonly fittedAt: number
    readonly settings?: ForecastSettings
    readonly progress?: FitProgress
  }
): ParkingModel => {
  const settings = options.settings ?? DEFAULT_SETTINGS
  const progress = options.progress ?? (() => {})
  const bySite = new Map<string, Array<ParkingReading>>()
  let newest = 0
  for (const r of history) {
    let rs = bySite.get(r.site)
    if (rs === undefined) bySite.set(r.site, (rs = []))
    rs.push(r)
    if (r.at > newest) newest = r.at
  }
  const sites = [...bySite].map(([site, rs]) => cellsOf(site, rs)).filter((c) => c.days.size >= settings.minDays)
  progress(`${sites.length} of ${bySite.size} sites have ${settings.minDays}+ days of counts`)

  // held-out examples: every slot start that has a reading, to every horizon
  type Example = { site: number; h: number; phase: number; x: Array<number>; y: number }
  const examples: Array<Example> = []
  const fullProfiles: Array<Array<number>> = []
  for (let si = 0; si < sites.length; si++) {
    const c = sites[si]
    const newestDay = Math.max(...c.days)
    fullProfiles.push(profileOf(c, settings, newestDay))
    const held = new Map<number, Array<number>>()
    for (const day of c.days) held.set(day, profileOf(c, settings, newestDay, day))
    const series = c.cells
    const valueAt = new Map(series.map((s) => [s.at, s]))
    const heldProfile = (at: number, exclude: number) => profileAt(c.site, held.get(exclude)!, at)
    let from = 0
    for (let i = 0; i < series.length; i++) {
      const origin = series[i]
      while (series[from].at <= origin.at - DAY) from++
      const dep = departureOf(series.slice(from, i + 1), (p) => heldProfile(p.at, p.day!), origin.at)
      if (dep === undefined) continue
      for (let h = 0; h < HORIZONS_H.length; h++) {
        const target = valueAt.get(origin.at + HORIZONS_H[h] * HOUR)
        if (target === undefined) continue
        // the target's own day is held out of the profile it is judged against
        const p = heldProfile(target.at, target.day)
        if (Number.isNaN(p)) continue
        examples.push({ site: si, h, phase: phaseOf(origin.slot), x: featuresOf(dep), y: target.value - p })
      }
    }
  }
  progress(`${examples.length} held-out examples`)

  const coefficients = HORIZONS_H.map((_, h) => {
    const mine = examples.filter((e) => e.h === h)
    return mine.length < 50
      ? featuresOf(undefined).map(() => 0)
      : lad(
          mine.map((e) => e.x),
          mine.map((e) => e.y)
        )
  })
  const grouped = new Map<string, Array<Example>>()
  for (const e of examples) {
    for (const key of [`${e.site}|${e.h}`, `${e.site}|${e.h}|${e.phase}`]) {
      const g = grouped.get(key)
      if (g === undefined) grouped.set(key, [e])
      else g.push(e)
    }
  }
  const fitTo = (mine: ReadonlyArray<Example> | undefined, shrink: number, prior: ReadonlyArray<number>) =>
    mine === undefined || mine.length < 30
      ? [...prior]
      : lad(
          mine.map((e) => e.x),
          mine.map((e) => e.y),
          shrink,
          prior
        )
  // each site's own, shrunk toward the pooled (some sites' counts run smooth, others jump), and
  // each phase of the site's two-hour cycle its own, shrunk toward the site's (some counters are
  // reset every two hours)
  const own = sites.map((_, si) =>
    HORIZONS_H.map((_, h) => {
      const site = fitTo(grouped.get(`${si}|${h}`), settings.siteShrink, coefficients[h])
      // beyond a cycle or so a reset in between is certain, and per-phase coefficients only fit noise
      return Array.from({ length: PHASES }, (_, ph) =>
        HORIZONS_H[h] > settings.phaseUpToH ? site : fitTo(grouped.get(`${si}|${h}|${ph}`), settings.phaseShrink, site)
      )
    })
  )
  const predict = (e: Example) => e.x.reduce((s, x, j) => s + x * own[e.site][e.h][e.phase][j], 0)
  const siteErrors = sites.map(() => HORIZONS_H.map(() => ({ sum: 0, n: 0 })))
  for (const e of examples) {
    const a = siteErrors[e.site][e.h]
    a.sum += Math.abs(e.y - predict(e))
    a.n++
  }
  const scales = siteErrors.map((hs) => {
    const sum = hs.reduce((s, a) => s + a.sum, 0)
    const n = hs.reduce((s, a) => s + a.n, 0)
    return n > 0 ? Math.max(1, sum / n) : 1
  })
  const errorQuantiles = HORIZONS_H.map((_, h) =>
    quantilesOf(
      examples.filter((e) => e.h === h).map((e) => (e.y - predict(e)) / scales[e.site]),
      QUANTILES
    )
  )
  const models: Record<string, SiteModel> = {}
  sites.forEach((c, i) => {
    models[c.site] = {
      site: c.site,
      capacity: c.capacity,
      profile: fullProfiles[i].map((v) => Math.round(v * 100) / 100),
      scale: Math.round(scales[i] * 1000) / 1000,
      lowValue: c.lowValue,
      coefficients: own[i].map((phases) => phases.map((b) => b.map((v) => Math.round(v * 10000) / 10000))),
      mae: siteErrors[i].map((a) => (a.n > 0 ? Math.round((a.sum / a.n) * 100) / 100 : NaN)),
      days: c.days.size,
      readings: c.readings
    }
  })
  return {
    version: 1,
    fittedAt: new Date(options.fittedAt).toISOString(),
    dataUntil: new Date(newest).toISOString(),
    settings,
    horizons: [...HORIZONS_H],
    coefficients,
    errorQuantiles,
    sites: models
  }
}

// ---------------------------------------------------------------------------------------------
// Forecasting

const interpolate = (hs: ReadonlyArray<number>, rows: ReadonlyArray<ReadonlyArray<number>>, h: number) => {
  if (h <= hs[0]) return rows[0]
  for (let i = 1; i < hs.length; i++) {
    if (h <= hs[i]) {
      const t = (h - hs[i - 1]) / (hs[i] - hs[i - 1])
      return rows[i].map((v, j) => rows[i - 1][j] * (1 - t) + v * t)
    }
  }
  return rows[rows.length - 1]
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v))

export type ForecastAnswer =
  { readonly ok: true; readonly forecast: ParkingForecast } | { readonly ok: false; readonly reason: string }

/**
 * The forecast for `site` at `targetAt`, made at `issuedAt` from `recent` (the site's readings,
 * oldest first; any after `issuedAt` are ignored, so a forecast only uses what was known then).
 */
/**
 * The forecaster for `site` as of `issuedAt`, from `recent` (the site's readings, oldest first;
 * any after `issuedAt` are ignored, so a forecast only uses what was known then): a function of the
 * target time. What does not depend on the target (the departure, the phase) is worked out once.
 */
export const parkingForecaster = (
  model: ParkingModel,
  site: string,
  recent: ReadonlyArray<ParkingReading>,
  issuedAt: number
): ((targetAt: number) => ForecastAnswer) => {
  const m = model.sites[site]
  if (m === undefined) return () => ({ ok: false, reason: "not enough history at this site to forecast it" })
  const points = recent
    .filter((r) => r.at <= issuedAt)
    .map((r) => ({ at: r.at, value: valueOf(r, m.lowValue), trend: r.trend }))
    .filter((r): r is { at: number; value: number; trend: ParkingReading["trend"] } => r.value !== null)
  const x = featuresOf(departureOf(points, (p) => profileAt(site, m.profile, p.at), issuedAt))
  const phase = phaseOf(localSlot(site, issuedAt).slot)
  const coefficients = m.coefficients.map((phases) => phases[phase])
  const cap = m.capacity ?? Infinity
  const round1 = (v: number) => Math.round(v * 10) / 10
  return (targetAt) => {
    const h = (targetAt - issuedAt) / HOUR
    if (!(h >= MIN_HORIZON_H - 1e-9 && h <= MAX_HORIZON_H + 1e-9))
      return { ok: false, reason: `forecasts run from ${MIN_HORIZON_H * 60} minutes to ${MAX_HORIZON_H} hours ahead` }
    const beta = interpolate(model.horizons, coefficients, h)
    const qs = interpolate(model.horizons, model.errorQuantiles, h)
    const mean = profileAt(site, m.profile, targetAt) + x.reduce((s, v, j) => s + v * beta[j], 0)
    const at = (q: number) => clamp(mean + qs[Math.round(q * 100) - 1] * m.scale, 0, cap)
    // no space: the count below one half, read off the error distribution
    const fullBelow = (0.5 - mean) / m.scale
    const below = qs.findIndex((q) => q > fullBelow)
    const pFull = below < 0 ? 0.995 : below === 0 ? 0.005 : below / 100
    return {
      ok: true,
      forecast: {
        p10: round1(at(model.settings.band[0])),
        p50: round1(at(0.5)),
        p90: round1(at(model.settings.band[1])),
        p_full: Math.round(pFull * 1000) / 1000
      }
    }
  }
}

/** One forecast for `site` at `targetAt`, made at `issuedAt` (see parkingForecaster). */
export const forecastParking = (
  model: ParkingModel,
  site: string,
  recent: ReadonlyArray<ParkingReading>,
  issuedAt: number,
  targetAt: number
): ForecastAnswer => parkingForecaster(model, site, recent, issuedAt)(targetAt)
