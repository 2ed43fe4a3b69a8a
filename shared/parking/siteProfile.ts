import { localSlot, SLOTS_PER_DAY } from "./localSlot.js"
import type { ForecastSettings } from "./forecastSettings.js"
import type { ParkingReading } from "./readings.js"

/** A site's readings as 15-minute cells and its week as a profile: the forecaster's baseline. */

const SLOT_MS = 15 * 60_000

// ---------------------------------------------------------------------------------------------
// Cells: one mean per site, local day and slot

export interface Cell {
  /** the slot's start (ms, UTC) */
  readonly at: number
  readonly day: number
  readonly weekday: number
  readonly slot: number
  readonly value: number
  readonly trend: ParkingReading["trend"]
}

export interface SiteCells {
  readonly site: string
  readonly capacity: number | null
  readonly lowValue: number
  readonly readings: number
  /** time order */
  readonly cells: ReadonlyArray<Cell>
  readonly days: ReadonlySet<number>
}

export const lowValueOf = (rs: ReadonlyArray<ParkingReading>) => {
  let min = Infinity
  for (const r of rs) if (r.available !== null && r.available > 0 && r.available < min) min = r.available
  return Number.isFinite(min) ? Math.max(0, Math.floor(min / 2)) : 0
}

export const valueOf = (r: ParkingReading, lowValue: number) =>
  r.available !== null ? r.available : r.low ? lowValue : null

export const cellsOf = (site: string, rs: ReadonlyArray<ParkingReading>): SiteCells => {
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
export const profileOf = (c: SiteCells, settings: ForecastSettings, newestDay: number, exclude = NaN) => {
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

export const profileAt = (site: string, profile: ReadonlyArray<number>, at: number) => {
  const { weekday, slot } = localSlot(site, at)
  return profile[weekday * SLOTS_PER_DAY + slot]
}
