import { describe, expect, it } from "vitest"
import { eia_weekly } from "../../../pipeline/sources/eia_weekly.js"
import { statcan_monthly } from "../../../pipeline/sources/statcan_monthly.js"
import { decodeOk, ownFixture } from "../../support/adapterSuite.js"

// no recorded EIA or Statistics Canada payload is in ../shared: the shared suite runs on our own fixtures
// (allAdapters.test.ts)

describe("fuel price adapters", () => {
  it("reads weekly US state prices per gallon and skips national and regional series", () => {
    const d = decodeOk(eia_weekly, ownFixture("eia_weekly/gnd.json"))
    expect(d.records).toEqual([
      {
        source_id: "CA||regular|2026-11-16",
        jurisdiction: "CA",
        country: "US",
        area: null,
        fuel_type: "regular",
        price: 4.631,
        currency: "USD",
        unit: "gallon",
        period_date: "2026-11-16",
        frequency: "weekly"
      },
      expect.objectContaining({ fuel_type: "diesel", price: 5.412 }),
      expect.objectContaining({ period_date: "2026-11-09", price: 4.702 })
    ])
    expect(d.rejected.map((r) => r.reason)).toEqual(['price "NA" is not a positive number', "value: is missing"])
  })

  it("reads monthly Canadian city prices in CAD per litre under their province", () => {
    const d = decodeOk(statcan_monthly, ownFixture("statcan_monthly/rows.json"))
    expect(d.records.map((r) => [r.jurisdiction, r.area, r.fuel_type, r.price, r.period_date])).toEqual([
      ["ON", "Toronto", "regular", 1.493, "2026-10-01"],
      ["BC", "Vancouver", "diesel", 1.719, "2026-10-01"],
      ["BC", "Vancouver", "diesel", 1.69, "2026-09-01"]
    ])
    expect(d.records[0]).toMatchObject({ country: "CA", currency: "CAD", unit: "litre", frequency: "monthly" })
  })
})
