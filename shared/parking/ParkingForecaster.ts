import { localSlot, SLOTS_PER_DAY } from "./localSlot.js"
import type { ParkingReading } from "./readings.js"

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
const SLOT_MS = 15 * MINUTE

/** The horizons (hours) coefficients and error tables are fitted at; others are interpolated. */
export const HORIZONS_H = [0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24] as const
export const MIN_HORIZON_H = 0.25
export const MAX_HORIZON_H = 24

/** Error quantiles kept per horizon (of the site-scaled held-out error), for the band and p_full. */
const QUANTILES = Array.from({ length: 99 }, (_, i) => (i + 1) / 100)

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
// Cells: one mean per site, local day and slot

interface Cell {
  /** the slot's start (ms, UTC) */
  readonly at: number
  readonly day: number
  readonly weekday: number
  readonly slot: number
  readonly value: number
  readonly trend: ParkingReading["trend"]
}

interface SiteCells {
  readonly site: string
  readonly capacity: number | null
  readonly lowValue: number
  readonly readings: number
  /** time order */
  readonly cells: ReadonlyArray<Cell>
  readonly days: ReadonlySet<number>
}

const lowValueOf = (rs: ReadonlyArray<ParkingReading>) => {
  let min = Infinity
  for (const r of rs) if (r.available !== null && r.available > 0 && r.available < min) min = r.available
  return Number.isFinite(min) ? Math.max(0, Math.floor(min / 2)) : 0
}

const valueOf = (r: ParkingReading, lowValue: number) => (r.available !== null ? r.available : r.low ? lowValue : null)

const cellsOf = (site: string, rs: ReadonlyArray<ParkingReading>): SiteCells => {
  const lowValue = lowValueOf(rs)
  const slots = new Map<number, { sum: number; n: number; trend: ParkingReading["trend"] }>()
  let capacity: number | null = null
  let readings = 0
  for (const r of rs) {
    if (r.capacity !== null) capacity = r.capacity
    const v = valueOf(r, lowValue)
    if (v === null) continue
    const at = Math.floor(r.at / SLOT_MS) * SLOT_MS
    const s = slots.get(at)
    if (s === undefined) slots.set(at, { sum: v, n: 1, trend: r.trend })
    else {
      s.sum += v
      s.n++
      if (r.trend !== null) s.trend = r.trend
    }
    readings++
  }
  const cells = [...slots]
    .sort((x, y) => x[0] - y[0])
    .map(([at, s]) => ({ at, ...localSlot(site, at), value: s.sum / s.n, trend: s.trend }))
  return { site, capacity, lowValue, readings, cells, days: new Set(cells.map((c) => c.day)) }
}

// ---------------------------------------------------------------------------------------------
// Profiles

/**
 * The profile of one site as 7 × 96 values, from every day but `exclude`: each weekday's smoothed
 * mean shrunk toward its day type's (weekday or weekend), recent days weighing more.
 */
const profileOf = (c: SiteCells, settings: ForecastSettings, newestDay: number, exclude = NaN) => {
  let out = meanProfile(c, settings, newestDay, exclude, null)
  // toward a median: a cell far from the profile (a counter's jump) weighs less
  for (let i = 0; i < settings.robustPasses; i++) out = meanProfile(c, settings, newestDay, exclude, out)
  return out
}

const meanProfile = (
  c: SiteCells,
  settings: ForecastSettings,
  newestDay: number,
  exclude: number,
  previous: ReadonlyArray<number> | null
) => {
  const k = settings.kernel
  const dowSum = new Float64Array(7 * SLOTS_PER_DAY)
  const dowW = new Float64Array(7 * SLOTS_PER_DAY)
  for (const cell of c.cells) {
    if (cell.day === exclude) continue
    const base = cell.weekday * SLOTS_PER_DAY
    const w =
      Math.pow(0.5, (newestDay - cell.day) / settings.halfLifeDays) /
      (previous === null ? 1 : Math.max(settings.robustFloor, Math.abs(cell.value - previous[base + cell.slot])))
    for (let j = -(k.length - 1); j < k.length; j++) {
      const s = (cell.slot + j + SLOTS_PER_DAY) % SLOTS_PER_DAY
      const wk = w * k[Math.abs(j)]
      dowSum[base + s] += wk * cell.value
      dowW[base + s] += wk
    }
  }
  const kernelMass = k.reduce((a, b, i) => a + (i === 0 ? b : 2 * b), 0)
  const out = new Array<number>(7 * SLOTS_PER_DAY).fill(NaN)
  let allSum = 0
  let allW = 0
  for (let i = 0; i < dowSum.length; i++) {
    allSum += dowSum[i]
    allW += dowW[i]
  }
  const overall = allW > 0 ? allSum / allW : NaN
  for (let s = 0; s < SLOTS_PER_DAY; s++) {
    for (const weekend of [false, true]) {
      const members = weekend ? [0, 6] : [1, 2, 3, 4, 5]
      let ts = 0
      let tw = 0
      for (const d of members) {
        ts += dowSum[d * SLOTS_PER_DAY + s]
        tw += dowW[d * SLOTS_PER_DAY + s]
      }
      const typeMean = tw > 0 ? ts / tw : overall
      for (const d of members) {
        const w = dowW[d * SLOTS_PER_DAY + s] / kernelMass
        const dowMean = w > 0 ? dowSum[d * SLOTS_PER_DAY + s] / dowW[d * SLOTS_PER_DAY + s] : typeMean
        out[d * SLOTS_PER_DAY + s] = (w * dowMean + settings.weekdayShrink * typeMean) / (w + settings.weekdayShrink)
      }
    }
  }
  return out
}

const profileAt = (site: string, profile: ReadonlyArray<number>, at: number) => {
  const { weekday, slot } = localSlot(site, at)
  return profile[weekday * SLOTS_PER_DAY + slot]
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
// Least absolute deviation by iteratively reweighted least squares

const solve = (a: Array<Array<number>>, b: Array<number>) => {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i]])
  for (let c = 0; c < n; c++) {
    let p = c
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r
    ;[m[c], m[p]] = [m[p], m[c]]
    if (Math.abs(m[c][c]) < 1e-9) m[c][c] = 1e-9
    for (let r = 0; r < n; r++) {
      if (r === c) continue
      const f = m[r][c] / m[c][c]
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k]
    }
  }
  return m.map((row, i) => row[n] / row[i])
}

const lad = (
  xs: ReadonlyArray<ReadonlyArray<number>>,
  ys: ReadonlyArray<number>,
  ridge = 1,
  prior: ReadonlyArray<number> = []
) => {
  const p = xs[0]?.length ?? 0
  let beta = new Array<number>(p).fill(0)
  let w = new Array<number>(ys.length).fill(1)
  for (let iter = 0; iter < 20; iter++) {
    const a = Array.from({ length: p }, () => new Array<number>(p).fill(0))
    const b = new Array<number>(p).fill(0)
    for (let i = 0; i < ys.length; i++) {
      const x = xs[i]
      const wi = w[i]
      for (let r = 0; r < p; r++) {
        const wx = wi * x[r]
        if (wx === 0) continue
        b[r] += wx * ys[i]
        for (let c = r; c < p; c++) a[r][c] += wx * x[c]
      }
    }
    for (let r = 0; r < p; r++) for (let c = 0; c < r; c++) a[r][c] = a[c][r]
    // the penalty pulls toward `prior` (zero when none): a site's own coefficients toward the pooled ones
    for (let r = prior.length > 0 ? 0 : 1; r < p; r++) {
      a[r][r] += ridge
      b[r] += ridge * (prior[r] ?? 0)
    }
    const next = solve(a, b)
    const moved = next.reduce((m, v, j) => Math.max(m, Math.abs(v - beta[j])), 0)
    beta = next
    if (moved < 1e-4) break
    w = ys.map((y, i) => 1 / Math.max(0.5, Math.abs(y - xs[i].reduce((s, x, j) => s + x * beta[j], 0))))
  }
  return beta
}

const quantilesOf = (values: Array<number>, qs: ReadonlyArray<number>) => {
  const v = [...values].sort((a, b) => a - b)
  return qs.map((q) => (v.length === 0 ? 0 : v[Math.min(v.length - 1, Math.floor(q * v.length))]))
}

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
