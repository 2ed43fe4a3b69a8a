import { Clock, Effect } from "effect"
import { HORIZONS_H, parkingForecaster } from "../../shared/parking/ParkingForecaster.js"
import { currentParkingModel } from "../../shared/parking/currentModel.js"
import { quarterHoursAhead } from "../../shared/parking/forecastCurve.js"
import { storedReadings } from "../../shared/parking/modelStore.js"
import { PARKING_TYPES, siteKey } from "../../shared/parking/readings.js"

export interface ForecastRow {
  readonly id: string
  readonly jurisdiction: string
  readonly source_id: string
  readonly feature_type: string
  readonly properties: Record<string, unknown>
}

export const isParkingFeature = (row: ForecastRow) => PARKING_TYPES.has(row.feature_type)

/** A parking site's forecast every 15 minutes for `hours`, or why there is none. */
export const parkingForecast = (row: ForecastRow, hours: number) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const site = siteKey(row.jurisdiction, row.source_id)
    const current = yield* currentParkingModel
    const recent = yield* storedReadings(new Date(now - 24 * 3_600_000).toISOString(), site)
    const last = recent[recent.length - 1]
    const base = {
      feature_id: row.id,
      issued_at: new Date(now).toISOString(),
      capacity: typeof row.properties.capacity === "number" ? row.properties.capacity : null,
      latest_reading: last ? { at: new Date(last.at).toISOString(), available: last.available, low: last.low } : null,
      model: current
        ? { fitted_at: current.info.fitted_at, data_until: current.info.data_until, seeded: current.info.seeded }
        : null
    }
    const siteModel = current?.model.sites[site]
    if (current === undefined || siteModel === undefined)
      return {
        ...base,
        forecast_available: false,
        reason:
          current === undefined
            ? "the forecaster has not been fitted yet; it fits at start and daily"
            : `this site has too little history to forecast: the forecaster needs ${current.model.settings.minDays} days of counts`,
        measured_error: [],
        points: []
      }
    const points = []
    const forecast = parkingForecaster(current.model, site, recent, now)
    for (const at of quarterHoursAhead(now, hours)) {
      const a = forecast(at)
      if (a.ok) points.push({ at: new Date(at).toISOString(), ...a.forecast })
    }
    return {
      ...base,
      capacity: base.capacity ?? siteModel.capacity,
      forecast_available: true,
      measured_error: HORIZONS_H.map((h, i) => ({
        horizon_h: h,
        mae: Number.isFinite(siteModel.mae[i]) ? siteModel.mae[i] : null
      })),
      points
    }
  })
