import { Schema } from "effect"
import type { FuelPriceObservation } from "../../shared/domain/FuelPrice.js"
import { Lenient, defineAdapter, type PriceAdapter } from "./Adapter.js"
import { US_STATES } from "../../shared/domain/Jurisdictions.js"

/**
 * U.S. EIA weekly retail prices (API v2, `petroleum/pri/gnd`): `{response: {data: [...]}}`.
 * State series (`duoarea` S + postal code) become rows for that state; national, PADD and city
 * series are not jurisdictions and are skipped. Prices are USD per gallon.
 */

const Row = Schema.Struct({
  period: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/)),
  duoarea: Schema.String,
  "area-name": Lenient.optString,
  product: Schema.String,
  "product-name": Lenient.optString,
  value: Schema.Union(Schema.Number, Schema.String),
  units: Lenient.optString
})
type Row = typeof Row.Type

const Envelope = Schema.Struct({ response: Schema.Struct({ data: Schema.Array(Schema.Unknown) }) })

const PRODUCTS: Record<string, string> = {
  EPMR: "regular",
  EPMM: "midgrade",
  EPMP: "premium",
  EPM0: "gasoline",
  EPD2D: "diesel",
  EPD2DXL0: "diesel"
}
const STATES = new Set(US_STATES.map(([code]) => code))

const stateOf = (duoarea: string) =>
  /^S[A-Z]{2}$/.test(duoarea) && STATES.has(duoarea.slice(1)) ? duoarea.slice(1) : null

const toPrice = (r: Row): FuelPriceObservation | string | null => {
  const state = stateOf(r.duoarea)
  const fuel = PRODUCTS[r.product]
  if (!state || !fuel) return null
  const price = typeof r.value === "number" ? r.value : Number(r.value)
  if (!Number.isFinite(price) || price <= 0) return `price ${JSON.stringify(r.value)} is not a positive number`
  if (r.units && !/\$\/GAL/i.test(r.units)) return `unexpected units ${r.units}`
  return {
    source_id: `${state}||${fuel}|${r.period}`,
    jurisdiction: state,
    country: "US",
    area: null,
    fuel_type: fuel,
    price,
    currency: "USD",
    unit: "gallon",
    period_date: r.period,
    frequency: "weekly"
  }
}

export const eia_weekly: PriceAdapter = defineAdapter({
  id: "eia_weekly",
  revision: 1,
  kind: "prices",
  formats: ["eia-api-v2-petroleum-pri-gnd"],
  yields: ["regular", "midgrade", "premium", "gasoline", "diesel"],
  attribution: {
    name: "U.S. Energy Information Administration",
    text: "Source: U.S. Energy Information Administration (EIA)",
    url: "https://www.eia.gov",
    license: "public domain"
  },
  records: {
    envelope: Envelope,
    items: (e) => e.response.data,
    record: Row,
    map: () => toPrice,
    idOf: (raw) => {
      const r = raw as Partial<Row> | null
      const state = r && typeof r.duoarea === "string" ? stateOf(r.duoarea) : null
      const fuel = r && typeof r.product === "string" ? PRODUCTS[r.product] : undefined
      return state && fuel && typeof r?.period === "string" ? `${state}||${fuel}|${r.period}` : undefined
    }
  }
})
