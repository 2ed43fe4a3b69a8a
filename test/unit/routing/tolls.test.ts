import fc from "fast-check"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { TollTable, tollCosts } from "../../../shared/routing/tolls.js"

const table = new TollTable(fileURLToPath(new URL("../../../infra/network/data", import.meta.url)))
const systems = [...table.names.keys()]

describe("toll pricing", () => {
  it("sums each currency's section fares into summary.toll_costs (property)", () => {
    const section = fc.record({ toll: fc.constantFrom(...systems), km: fc.double({ min: 0, max: 500, noNaN: true }) })
    const truck = fc.record({ axle_count: fc.integer({ min: 2, max: 9 }), profile: fc.constant("tractor"), weight_t: fc.constant(36), height_m: fc.constant(4), hazmat: fc.boolean() })
    fc.assert(fc.property(fc.array(section, { maxLength: 20 }), truck, fc.constantFrom(undefined, "USD", "CAD"), (secs, t, currency) => {
      const priced = secs.map((s) => ({ tolls: [table.fare(s.toll, s.km, t, currency)] }))
      const costs = tollCosts(priced)
      const expected = new Map<string, number>()
      for (const s of priced) for (const f of s.tolls[0].fares) if (f.price) expected.set(f.price.currency, (expected.get(f.price.currency) ?? 0) + f.price.value)
      expect(costs.map((c) => c.currency).sort()).toEqual([...expected.keys()].sort())
      for (const c of costs) expect(Math.abs(c.value - expected.get(c.currency)!)).toBeLessThan(0.005)
      // nothing is ever priced at 0 for want of a rate
      for (const s of priced) for (const f of s.tolls[0].fares) if (!f.price) expect(f.name).toMatch(/no rate on file/)
    }))
  })

  it("converts with the dated rate table and keys the class to the axle count", () => {
    const five = table.fare("etr407", 100, { axle_count: 5, profile: "tractor", weight_t: 36, height_m: 4, hazmat: false }, undefined)
    expect(five.system).toBe("407 ETR")
    expect(five.fares[0].name).toBe("Heavy multiple-unit vehicle")
    expect(five.fares[0].price!.currency).toBe("CAD")
    const usd = table.fare("etr407", 100, { axle_count: 5, profile: "tractor", weight_t: 36, height_m: 4, hazmat: false }, "USD")
    expect(usd.fares[0].price!.value).toBeCloseTo(five.fares[0].price!.value / table.perUsd.get("CAD")!.rate, 1)
    expect(TollTable.axlesOf({ profile: "tractor", weight_t: 36, height_m: 4, hazmat: false })).toBe(5)
    expect(TollTable.axlesOf({ profile: "box", weight_t: 10, height_m: 3.5, hazmat: false })).toBe(2)
    for (const row of table.perUsd.values()) expect(row.as_of).toMatch(/^\d{4}-\d\d-\d\d$/)
  })
})
