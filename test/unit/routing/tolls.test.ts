import fc from "fast-check"
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { TollTable, tollCosts } from "../../../shared/routing/tolls/tolls.js"

const table = new TollTable(fileURLToPath(new URL("../../../shared/routing/data/tables", import.meta.url)))
const systems = [...table.facilities.keys()]
const truckOf = (axle_count: number) => ({ axle_count, profile: "tractor", weight_t: 36, height_m: 4, hazmat: false })

describe("toll pricing", () => {
  it("sums each currency's section fares into summary.toll_costs (property)", () => {
    const section = fc.record({ toll: fc.constantFrom(...systems), km: fc.double({ min: 0, max: 500, noNaN: true }) })
    const truck = fc.record({
      axle_count: fc.integer({ min: 2, max: 9 }),
      profile: fc.constant("tractor"),
      weight_t: fc.constant(36),
      height_m: fc.constant(4),
      hazmat: fc.boolean()
    })
    fc.assert(
      fc.property(
        fc.array(section, { maxLength: 20 }),
        truck,
        fc.constantFrom(undefined, "USD", "CAD"),
        (secs, t, currency) => {
          const priced = secs.map((s) => ({ tolls: [table.fare(s.toll, s.km, t, currency)] }))
          const costs = tollCosts(priced)
          const expected = new Map<string, number>()
          for (const s of priced)
            for (const f of s.tolls[0].fares)
              if (f.price) expected.set(f.price.currency, (expected.get(f.price.currency) ?? 0) + f.price.value)
          expect(costs.map((c) => c.currency).sort()).toEqual([...expected.keys()].sort())
          for (const c of costs) expect(Math.abs(c.value - expected.get(c.currency)!)).toBeLessThan(0.005)
          // nothing is ever priced at 0 for want of a rate: a fare without a price says why
          for (const s of priced)
            for (const f of s.tolls[0].fares) if (!f.price) expect(f.unpriced_reason).toMatch(/on file/)
        }
      )
    )
  })

  it("converts with the dated rate table and keys the class to the axle count", () => {
    const five = table.fare(
      "etr407",
      100,
      { axle_count: 5, profile: "tractor", weight_t: 36, height_m: 4, hazmat: false },
      undefined
    )
    expect(five.system).toBe("407 ETR")
    expect(five.fares[0].name).toBe("Heavy multiple-unit vehicle, transponder")
    expect(five.fares[0].price!.currency).toBe("CAD")
    const usd = table.fare(
      "etr407",
      100,
      { axle_count: 5, profile: "tractor", weight_t: 36, height_m: 4, hazmat: false },
      "USD"
    )
    expect(usd.fares[0].price!.value).toBeCloseTo(five.fares[0].price!.value / table.perUsd.get("CAD")!.rate, 1)
    expect(TollTable.axlesOf({ profile: "tractor", weight_t: 36, height_m: 4, hazmat: false })).toBe(5)
    expect(TollTable.axlesOf({ profile: "box", weight_t: 10, height_m: 3.5, hazmat: false })).toBe(2)
    for (const row of table.perUsd.values()) expect(row.as_of).toMatch(/^\d{4}-\d\d-\d\d$/)
  })

  it("knows every facility's kind, operator and direction, and dates and sources every fare", () => {
    for (const f of table.facilities.values()) {
      expect(f.operator).not.toBe("")
      expect(["road", "bridge", "tunnel", "crossing"]).toContain(f.kind)
    }
    // crossings once priced as free are facilities now
    for (const id of [
      "ambassador_bridge",
      "blue_water_bridge",
      "gordie_howe_bridge",
      "goethals_bridge",
      "hugh_l_carey_tunnel"
    ])
      expect(table.facilities.has(id)).toBe(true)
    const [header, ...rows] = readFileSync(
      fileURLToPath(new URL("../../../shared/routing/data/tables/toll_fares.csv", import.meta.url)),
      "utf8"
    )
      .trim()
      .split("\n")
    // only the last column (the source) may hold ';': a ';' earlier would shift the date into another column
    expect(header.split(";").slice(-3)).toEqual(["as_of", "superseded", "source"])
    for (const row of rows) {
      const cells = row.split(";")
      expect(cells[9], row).toMatch(/^\d{4}-\d\d-\d\d$/)
      expect(cells.slice(11).join(";").length, row).toBeGreaterThan(20)
    }
  })

  it("dates every priced fare, and says so where a later schedule replaced the rate on file", () => {
    const fare = (toll: string, axles: number, to?: string) =>
      table.fare(toll, 1.2, truckOf(axles), undefined, "transponder", to).fares[0]
    // a current rate: its date, nothing superseded
    expect(fare("gordie_howe_bridge", 5)).toMatchObject({ as_of: "2026-03-11" })
    expect(fare("gordie_howe_bridge", 5).superseded).toBeUndefined()
    // the Port Authority's 2023 schedule is still the latest with truck classes on file: priced, dated and flagged
    const pa = fare("george_washington_bridge", 2, "NY")
    expect(pa.price).toEqual({ currency: "USD", value: 40 })
    expect(pa.as_of).toBe("2023-01-08")
    expect(pa.superseded).toMatch(/2026-01-04/)
    // the Chesapeake Bay Bridge-Tunnel's 2014 truck rates (FleetOwner): 2 and 5 axles differ as the schedule says
    expect(fare("chesapeake_bay_bridge_tunnel", 2)).toMatchObject({
      name: "2 axles, six tires",
      price: { currency: "USD", value: 19 },
      as_of: "2014-01-01"
    })
    expect(fare("chesapeake_bay_bridge_tunnel", 5)).toMatchObject({
      name: "5 axles",
      price: { currency: "USD", value: 39 }
    })
    expect(fare("chesapeake_bay_bridge_tunnel", 5).superseded).toMatch(/2024-01-01/)
    expect(fare("chesapeake_bay_bridge_tunnel", 7)).toEqual({
      name: "7 axles",
      unpriced_reason: "the District's rates for 7 axles and more are not on file"
    })
    // a one-way toll driven the free way is a 0 of no schedule: no date
    expect(fare("george_washington_bridge", 5, "NJ").as_of).toBeUndefined()
    // every priced fare of every facility carries a date
    for (const toll of systems)
      for (const axles of [2, 3, 5, 6]) {
        const f = table.fare(toll, 10, truckOf(axles), undefined).fares[0]
        if (f.price && f.price.value > 0) expect(f.as_of, `${toll} ${axles}`).toMatch(/^\d{4}-\d\d-\d\d$/)
      }
  })

  it("prices a crossing per axle and payment as its tariff says: 2 and 5 axles differ, the tag is cheaper than cash", () => {
    const fare = (toll: string, axles: number, payment?: "transponder" | "cash", to?: string) =>
      table.fare(toll, 1.2, truckOf(axles), undefined, payment, to).fares[0]
    // Gordie Howe 2026: US$6.90 an axle with a Breakaway tag, US$8.75 standard
    expect(fare("gordie_howe_bridge", 5).price).toEqual({ currency: "USD", value: 34.5 })
    expect(fare("gordie_howe_bridge", 2).price).toEqual({ currency: "USD", value: 13.8 })
    expect(fare("gordie_howe_bridge", 5, "cash")).toMatchObject({
      price: { currency: "USD", value: 43.75 },
      payment: "cash"
    })
    // Ambassador 2026: US$15 an axle with E-ZPass, US$20 without
    expect(fare("ambassador_bridge", 5).price!.value).toBe(75)
    expect(fare("ambassador_bridge", 5, "cash").price!.value).toBe(100)
    // Delaware Memorial 2019: a table per class, southbound into Delaware only
    expect(fare("delaware_memorial_bridge", 2, undefined, "DE").price!.value).toBe(12)
    expect(fare("delaware_memorial_bridge", 5, undefined, "DE").price!.value).toBe(35)
    expect(fare("delaware_memorial_bridge", 5, undefined, "NJ")).toMatchObject({
      price: { value: 0 },
      name: expect.stringMatching(/no toll NJ-bound \(collected DE-bound only\)/)
    })
    // Blue Water: the US-bound rate is on file, the Canada-bound one is not, and says so
    expect(fare("blue_water_bridge", 5, undefined, "MI").price).toEqual({ currency: "CAD", value: 23.75 })
    expect(fare("blue_water_bridge", 5, undefined, "ON")).toEqual({
      name: "5 axles",
      unpriced_reason: "MDOT's Canada-bound commercial rate is not on file"
    })
    // Port Authority 2023: 2 and 3 axles priced, larger trucks named as not on file
    expect(fare("goethals_bridge", 2, undefined, "NY").price!.value).toBe(40)
    expect(fare("goethals_bridge", 3, "cash", "NY").price!.value).toBe(69)
    expect(fare("goethals_bridge", 5, undefined, "NY").unpriced_reason).toMatch(/4 axles and more are not on file/)
  })

  it("charges a crossing once per passage however many sections it spans, in the direction the truck enters", () => {
    const truck = truckOf(5)
    const secs = [
      { toll: null, distance_m: 5000, to_region: "MI" },
      { toll: "blue_water_bridge", distance_m: 800, to_region: "ON" },
      { toll: "blue_water_bridge", distance_m: 900, to_region: "MI" },
      { toll: "ny_thruway", distance_m: 10_000, to_region: "NY" }
    ]
    const priced = table.sectionTolls(secs, truck, undefined, "transponder")
    expect(priced[0]).toBeUndefined()
    expect(priced[1]!.fares[0].price).toEqual({ currency: "CAD", value: 23.75 }) // entering Michigan
    expect(priced[2]!.fares[0]).toEqual({
      name: "5 axles",
      unpriced_reason: "one toll per passage, priced on the section before"
    })
    expect(priced[3]!.fares[0].price!.value).toBeCloseTo(0.146 * 10, 2)
  })

  it("refuses a trip fare on a road (it would be charged on every section), a per-km fare on a bridge and an undated fare", () => {
    const data = fileURLToPath(new URL("../../../shared/routing/data/tables", import.meta.url))
    const dir = mkdtempSync(join(tmpdir(), "tolls-"))
    try {
      for (const f of ["tolls.csv", "fx_rates.csv"]) copyFileSync(join(data, f), join(dir, f))
      const header = "toll;class;min_axles;max_axles;basis;rate;currency;payment;toward;as_of;source\n"
      writeFileSync(
        join(dir, "toll_fares.csv"),
        `${header}ohio_turnpike;5 axles;5;5;per_trip;40;USD;any;;2026-01-01;test\n`
      )
      expect(() => new TollTable(dir)).toThrow(/ohio_turnpike: a road takes per_km fares, not per_trip/)
      writeFileSync(
        join(dir, "toll_fares.csv"),
        `${header}goethals_bridge;5 axles;5;5;per_km;1;USD;any;;2026-01-01;test\n`
      )
      expect(() => new TollTable(dir)).toThrow(/goethals_bridge: a bridge takes per_trip or per_axle fares, not per_km/)
      // a fare is a planning estimate only with its date: an undated row stops the table loading
      writeFileSync(join(dir, "toll_fares.csv"), `${header}goethals_bridge;5 axles;5;5;per_trip;90;USD;any;;;test\n`)
      expect(() => new TollTable(dir)).toThrow(/goethals_bridge: 5 axles: as_of  is not a date/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
