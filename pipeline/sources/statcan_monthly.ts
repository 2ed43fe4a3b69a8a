import { Schema } from "effect"
import type { FuelPriceObservation } from "../../shared/domain/FuelPrice.js"
import { CA_PROVINCES } from "../../shared/domain/Jurisdictions.js"
import { Lenient, defineAdapter, type PriceAdapter } from "./Adapter.js"

/**
 * Statistics Canada table 18-10-0001-01, monthly average retail prices for fuel by city, as
 * JSON rows of its CSV (`REF_DATE`, `GEO`, `Type of fuel`, `UOM`, `VALUE`). A city row belongs
 * to its province and keeps the city as `area`; the national row is skipped. Cents per litre
 * become CAD per litre; an empty or suppressed value (`..`) is no price, never 0.
 */

const Row = Schema.Struct({
  REF_DATE: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}$/)),
  GEO: Schema.String,
  "Type of fuel": Schema.String,
  UOM: Schema.String,
  VALUE: Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String))),
  STATUS: Lenient.optString
})
type Row = typeof Row.Type

const PROVINCES = new Map(CA_PROVINCES.map(([code, name]) => [name.toLowerCase(), code] as const))
PROVINCES.set("quebec", "QC").set("québec", "QC")

const FUELS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^regular unleaded gasoline at self.service/i, "regular"],
  [/^premium unleaded gasoline at self.service/i, "premium"],
  [/^diesel fuel at self.service/i, "diesel"],
  [/^household heating fuel/i, "heating_oil"]
]

const placeOf = (geo: string) => {
  const parts = geo.split(",").map((p) => p.trim())
  const province = PROVINCES.get((parts[parts.length - 1] ?? "").toLowerCase())
  if (!province) return null
  return { province, area: parts.length > 1 ? parts.slice(0, -1).join(", ") : null }
}

const keyOf = (r: Pick<Row, "REF_DATE" | "GEO" | "Type of fuel">) => {
  const place = placeOf(r.GEO)
  const fuel = FUELS.find(([re]) => re.test(r["Type of fuel"]))?.[1]
  return place && fuel
    ? { ...place, fuel, key: `${place.province}|${place.area ?? ""}|${fuel}|${r.REF_DATE}-01` }
    : null
}

const toPrice = (r: Row): FuelPriceObservation | string | null => {
  const k = keyOf(r)
  if (!k) return null
  const raw = typeof r.VALUE === "string" ? r.VALUE.trim() : r.VALUE
  if (raw === undefined || raw === null || raw === "" || raw === ".." || raw === "x" || raw === "F") return null
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) return `value ${JSON.stringify(r.VALUE)} is not a positive number`
  const perLitre = /cents per litre/i.test(r.UOM) ? value / 100 : /dollars per litre/i.test(r.UOM) ? value : NaN
  if (!Number.isFinite(perLitre)) return `unexpected unit ${r.UOM}`
  return {
    source_id: k.key,
    jurisdiction: k.province,
    country: "CA",
    area: k.area,
    fuel_type: k.fuel,
    price: Math.round(perLitre * 10000) / 10000,
    currency: "CAD",
    unit: "litre",
    period_date: `${r.REF_DATE}-01`,
    frequency: "monthly"
  }
}

export const statcan_monthly: PriceAdapter = defineAdapter({
  id: "statcan_monthly",
  revision: 1,
  kind: "prices",
  formats: ["statcan-18100001-json-rows"],
  yields: ["regular", "premium", "diesel", "heating_oil"],
  attribution: {
    name: "Statistics Canada",
    text: "Source: Statistics Canada, Table 18-10-0001-01",
    url: "https://www.statcan.gc.ca",
    license: "Statistics Canada Open Licence"
  },
  records: {
    envelope: Schema.Array(Schema.Unknown),
    items: (a) => a,
    record: Row,
    map: () => toPrice,
    idOf: (raw) => {
      const r = raw as Partial<Row> | null
      return r && typeof r.REF_DATE === "string" && typeof r.GEO === "string" && typeof r["Type of fuel"] === "string"
        ? keyOf(r as Row)?.key
        : undefined
    }
  }
})
