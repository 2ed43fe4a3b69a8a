import { describe, expect, it } from "vitest"
import { fitParkingModel, forecastParking } from "../../../shared/parking/ParkingForecaster.js"
import { headerOf, type ParkingReading, readingOf } from "../../../shared/parking/readings.js"

const HOUR = 3_600_000
const START = Date.parse("2026-03-02T00:00:00Z")

/** A deterministic pseudo-random stream, so the synthetic history is the same on every run. */
const noise = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
  return seed / 2_147_483_648 - 0.5
}

/**
 * A lot of 60 spaces that empties by day and fills at night (a truck stop's shape), polled every
 * 16 minutes for `days`, with ±3 spaces of noise; `offset` shifts every count from a moment on.
 */
const lot = (days: number, shift?: { from: number; by: number }) => {
  const rand = noise(7)
  const out: Array<ParkingReading> = []
  for (let at = START; at < START + days * 24 * HOUR; at += 16 * 60_000) {
    const hourCt = (((at / HOUR - 6) % 24) + 24) % 24
    const shape = 30 + 25 * Math.cos(((hourCt - 14) / 24) * 2 * Math.PI)
    const value = Math.round(Math.min(60, Math.max(0, shape + rand() * 6 + (shift && at >= shift.from ? shift.by : 0))))
    out.push({ site: "IL:TEST1", at, available: value, low: false, capacity: 60, trend: null })
  }
  return out
}

describe("the parking forecaster", () => {
  const history = lot(21)
  const model = fitParkingModel(history, { fittedAt: START })
  const issued = START + 21 * 24 * HOUR
  const recent = lot(22).filter((r) => r.at > issued - 24 * HOUR)
  const truth = (at: number) => {
    const next = lot(23).find((r) => r.at >= at)!
    return next.available!
  }

  it("learns a site's daily shape: the median within a few spaces of the truth at every horizon", () => {
    for (const h of [0.25, 0.5, 1, 2, 4, 8, 12, 24]) {
      const target = issued + h * HOUR
      const a = forecastParking(model, "IL:TEST1", recent, issued, target)
      expect(a.ok, `${h} h`).toBe(true)
      if (!a.ok) continue
      expect(Math.abs(a.forecast.p50 - truth(target)), `${h} h`).toBeLessThan(6)
      expect(a.forecast.p10).toBeLessThanOrEqual(a.forecast.p50)
      expect(a.forecast.p50).toBeLessThanOrEqual(a.forecast.p90)
      expect(a.forecast.p90).toBeLessThanOrEqual(60)
      expect(a.forecast.p10).toBeGreaterThanOrEqual(0)
    }
  })

  it("says a lot near empty is likely full, and a lot with room is not", () => {
    // the shape bottoms out near 5 free spaces around 02:00 Central (08:00 UTC) and peaks at 14:00 Central
    const night = START + 21 * 24 * HOUR + 8 * HOUR
    const afternoon = START + 21 * 24 * HOUR + 20 * HOUR
    const a = forecastParking(model, "IL:TEST1", recent, issued, night)
    const b = forecastParking(model, "IL:TEST1", recent, issued, afternoon)
    expect(a.ok && b.ok).toBe(true)
    if (a.ok && b.ok) {
      expect(b.forecast.p_full).toBeLessThan(0.05)
      expect(a.forecast.p_full).toBeGreaterThan(b.forecast.p_full)
    }
  })

  it("carries a recent departure from the shape into the next hours, and lets it fade by the next day", () => {
    // the last six hours ran 15 spaces above the shape
    const shifted = lot(22, { from: issued - 6 * HOUR, by: 15 }).filter(
      (r) => r.at > issued - 24 * HOUR && r.at <= issued
    )
    const plain = forecastParking(model, "IL:TEST1", recent, issued, issued + HOUR)
    const raised = forecastParking(model, "IL:TEST1", shifted, issued, issued + HOUR)
    expect(plain.ok && raised.ok).toBe(true)
    if (plain.ok && raised.ok) expect(raised.forecast.p50 - plain.forecast.p50).toBeGreaterThan(5)
  })

  it("uses only what was known at the issue time: readings after it change nothing", () => {
    const known = recent.filter((r) => r.at <= issued)
    const withLater = [
      ...known,
      ...lot(23)
        .filter((r) => r.at > issued)
        .map((r) => ({ ...r, available: 0 }))
    ]
    for (const h of [0.5, 4, 12]) {
      expect(forecastParking(model, "IL:TEST1", withLater, issued, issued + h * HOUR)).toEqual(
        forecastParking(model, "IL:TEST1", known, issued, issued + h * HOUR)
      )
    }
  })

  it("answers why when it cannot forecast: an unknown site, too short a history, a horizon out of range", () => {
    expect(forecastParking(model, "IL:NOPE", recent, issued, issued + HOUR)).toMatchObject({ ok: false })
    const short = fitParkingModel(lot(3), { fittedAt: START })
    expect(forecastParking(short, "IL:TEST1", recent, issued, issued + HOUR)).toEqual({
      ok: false,
      reason: "not enough history at this site to forecast it"
    })
    expect(forecastParking(model, "IL:TEST1", recent, issued, issued + 5 * 60_000)).toMatchObject({ ok: false })
    expect(forecastParking(model, "IL:TEST1", recent, issued, issued + 25 * HOUR)).toMatchObject({ ok: false })
    expect(forecastParking(model, "IL:TEST1", recent, issued, issued - HOUR)).toMatchObject({ ok: false })
  })

  it("forecasts from the shape alone when nothing was read for a day", () => {
    const a = forecastParking(model, "IL:TEST1", [], issued, issued + 2 * HOUR)
    expect(a.ok).toBe(true)
  })
})

describe("reading a TPIMS history file", () => {
  const header = headerOf(
    "polled_at_utc,state,site_id,time_stamp,reported_available,capacity,trend,open,trust_data,low_threshold"
  )
  it("keeps a count only when the site vouched for it, and LOW as low", () => {
    expect(readingOf(header, "2026-07-09T15:54:19Z,IN,301,2026-07-09T11:40:00-04:00,8,30,,True,true,")).toEqual({
      site: "IN:301",
      at: Date.parse("2026-07-09T15:54:19Z"),
      available: 8,
      low: false,
      capacity: 30,
      trend: null
    })
    expect(readingOf(header, "2026-07-09T16:10:44Z,IN,301,x,LOW,30,,True,True,")).toMatchObject({
      available: null,
      low: true
    })
    expect(readingOf(header, "2026-07-09T16:10:44Z,IL,IL1,x,12,0,Filling,true,false,")).toMatchObject({
      available: null,
      capacity: null,
      trend: "FILLING"
    })
    expect(readingOf(header, "2026-07-09T16:10:44Z,IN,,x,Unknown,,,,,")).toBeNull()
    expect(readingOf(header, "not a time,IN,301,x,5,30,,True,true,")).toBeNull()
  })
  it("refuses a file without the columns it needs, naming them", () => {
    expect(() => headerOf("state,site_id,available")).toThrow(
      /no polled_at_utc, reported_available, capacity, trend, trust_data column/
    )
  })
})
