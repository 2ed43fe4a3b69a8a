import { Schema } from "effect"
import { DateTime } from "./common.js"

const Spaces = Schema.Number.annotations({ description: "Free spaces, one decimal" })

export const ForecastPoint = Schema.Struct({
  at: DateTime,
  p10: Spaces.annotations({ description: "Nine in ten times at least this many spaces are free" }),
  p50: Spaces.annotations({ description: "The median forecast of free spaces" }),
  p90: Spaces.annotations({ description: "Nine in ten times at most this many spaces are free" }),
  p_full: Schema.Number.annotations({ description: "The chance (0 to 1) that no space is free" })
}).annotations({ identifier: "ParkingForecastPoint" })

export const HorizonError = Schema.Struct({
  horizon_h: Schema.Number,
  mae: Schema.NullOr(Schema.Number).annotations({
    description: "The median forecast's mean absolute error at this site, in spaces, on held-out days of its history"
  })
}).annotations({ identifier: "ParkingForecastError" })

export const ParkingForecast = Schema.Struct({
  feature_id: Schema.String,
  issued_at: DateTime,
  forecast_available: Schema.Boolean.annotations({
    description: "False when the site has too little history to be forecast; `reason` says why and `points` is empty"
  }),
  reason: Schema.optional(Schema.String),
  capacity: Schema.NullOr(Schema.Number),
  latest_reading: Schema.NullOr(
    Schema.Struct({
      at: DateTime,
      available: Schema.NullOr(Schema.Number),
      low: Schema.Boolean.annotations({
        description: 'The site said "LOW" (fewer free than its threshold) instead of a count'
      })
    })
  ).annotations({ description: "The newest reading the forecast started from (null when none in the last day)" }),
  model: Schema.NullOr(
    Schema.Struct({
      fitted_at: DateTime,
      data_until: DateTime.annotations({ description: "The newest reading the model was fitted on" }),
      seeded: Schema.Boolean.annotations({ description: "True when the bundled July 2026 history was part of the fit" })
    })
  ),
  measured_error: Schema.Array(HorizonError),
  points: Schema.Array(ForecastPoint).annotations({ description: "Every 15 minutes from the next quarter hour" })
}).annotations({ identifier: "ParkingForecast" })
