import { Clock, Effect } from "effect"
import { currentParkingModel } from "./currentModel.js"
import { storedReadings } from "./modelStore.js"
import { MAX_HORIZON_H, parkingForecaster, type ParkingForecast } from "./ParkingForecaster.js"
import { readingsBySite } from "./readings.js"

const QUARTER = 15 * 60_000

/** A site's forecast every 15 minutes for the next 24 hours, made once and read at any arrival. */
export interface ForecastCurve {
  /** the first point's time (ms) */
  readonly from: number
  /** p10, p50, p90, p_full per point, 15 minutes apart */
  readonly points: ReadonlyArray<readonly [number, number, number, number]>
}

/** The target times of a forecast made at `now`: every quarter hour from the next one, `hours` ahead. */
export const quarterHoursAhead = (now: number, hours: number) => {
  const out: Array<number> = []
  for (let at = Math.ceil((now + QUARTER) / QUARTER) * QUARTER; at <= now + hours * 3_600_000; at += QUARTER)
    out.push(at)
  return out
}

/** The forecast at `at` (the nearest point), or undefined when `at` is outside the curve. */
export const expectedAt = (curve: ForecastCurve, at: number): (ParkingForecast & { at: string }) | undefined => {
  const i = Math.round((at - curve.from) / QUARTER)
  const p = curve.points[Math.max(0, i)]
  if (p === undefined || at < curve.from - QUARTER) return undefined
  return { p10: p[0], p50: p[1], p90: p[2], p_full: p[3], at: new Date(at).toISOString() }
}

/** The curves of the given sites that the forecaster knows, as of now; the rest are left out. */
export const forecastCurves = (sites: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const out = new Map<string, ForecastCurve>()
    if (sites.length === 0) return out
    const current = yield* currentParkingModel
    if (current === undefined) return out
    const known = [...new Set(sites)].filter((s) => current.model.sites[s] !== undefined)
    if (known.length === 0) return out
    const now = yield* Clock.currentTimeMillis
    const readings = yield* storedReadings(new Date(now - 24 * 3_600_000).toISOString(), known)
    const bySite = readingsBySite(readings)
    const targets = quarterHoursAhead(now, MAX_HORIZON_H)
    for (const site of known) {
      const forecast = parkingForecaster(current.model, site, bySite.get(site) ?? [], now)
      const points: Array<readonly [number, number, number, number]> = []
      for (const at of targets) {
        const a = forecast(at)
        if (!a.ok) break
        points.push([a.forecast.p10, a.forecast.p50, a.forecast.p90, a.forecast.p_full])
      }
      if (points.length > 0) out.set(site, { from: targets[0], points })
    }
    return out
  })
