import { Schema } from "effect"

/** One published fuel price (SPEC §2.8) as an adapter observes it. */
export const FuelPriceObservation = Schema.Struct({
  /** stable key: area, fuel type and period */
  source_id: Schema.String,
  jurisdiction: Schema.String,
  country: Schema.Literal("US", "CA"),
  /** the city or region a price is for, when the table is finer than a jurisdiction */
  area: Schema.NullOr(Schema.String),
  fuel_type: Schema.String,
  price: Schema.Number,
  currency: Schema.Literal("USD", "CAD"),
  unit: Schema.Literal("gallon", "litre"),
  period_date: Schema.String,
  frequency: Schema.Literal("weekly", "monthly")
})
export type FuelPriceObservation = typeof FuelPriceObservation.Type
