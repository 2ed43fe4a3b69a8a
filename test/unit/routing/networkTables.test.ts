import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { readCsv } from "../../../shared/routing/network/csv.js"

const table = (name: string) =>
  readCsv(fileURLToPath(new URL(`../../../shared/routing/data/tables/${name}`, import.meta.url)))
const MATCH = /^(root:[a-z]{2}\.[a-z0-9]+|system:[a-z]+|near:-?\d+\.\d+,-?\d+\.\d+,\d+)$/
/** a toll may also sit on the link between two routes' waypoints (a ramp toll: infra/network/linkTolls.ts) */
const TOLL_MATCH =
  /^(root:[a-z]{2}\.[a-z0-9]+|system:[a-z]+|near:-?\d+\.\d+,-?\d+\.\d+,\d+|link:[a-z]{2}\.[a-z0-9]+>[a-z]{2}\.[a-z0-9]+)$/

// Only a table's last column may hold ';': one inside an earlier column shifts every later one
// (a publication's date read as its source), which the network build cannot see.
describe("the network's data tables are well formed (shared/routing/data/tables)", () => {
  it("restrictions.csv: a match, a known limit, its structure and publication, and an as-of date on every row", () => {
    const rows = table("restrictions.csv")
    expect(rows.length).toBeGreaterThan(30)
    for (const r of rows) {
      const where = `${r.match} ${r.field}`
      expect(r.match, where).toMatch(MATCH)
      expect(
        [
          "truck_forbidden",
          "hazmat_forbidden",
          "tunnel",
          "tunnel_category",
          "max_height_m",
          "max_weight_t",
          "max_length_m",
          "max_axles"
        ],
        where
      ).toContain(r.field)
      expect(r.structure, where).not.toBe("")
      expect(r.publication, where).not.toBe("")
      expect(r.as_of, where).toMatch(/^\d{4}-\d\d-\d\d$/)
    }
  })

  it("tolls.csv: a match, how it is collected, its currency, operator, source and as-of date on every row, and a reason wherever no fare is on file", () => {
    const rows = table("tolls.csv")
    const fares = new Set(table("toll_fares.csv").map((f) => f.toll))
    expect(rows.length).toBeGreaterThan(140)
    for (const r of rows) {
      expect(r.match, r.toll).toMatch(TOLL_MATCH)
      if (r.match.startsWith("link:"))
        expect(
          [r.from_label, r.to_label].every((l) => l !== ""),
          r.toll
        ).toBe(true)
      expect(r.collected, r.toll).toMatch(/^(both|toward:[A-Z]{2})$/)
      expect(["USD", "CAD"], r.toll).toContain(r.currency)
      expect(r.operator, r.toll).not.toBe("")
      expect(r.source, r.toll).not.toBe("")
      expect(r.as_of, r.toll).toMatch(/^\d{4}-\d\d-\d\d$/)
      if (!fares.has(r.toll)) expect(r.unpriced, r.toll).not.toBe("")
    }
  })
})
