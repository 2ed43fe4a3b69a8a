import { describe, expect, it } from "vitest"
import { cellToLatLng, gridDisk, latLngToCell } from "h3-js"
import { CellFacts, km } from "../../../shared/geo/cellFacts.js"

const decimal = (h: string) => BigInt("0x" + h).toString()

describe("CellFacts", () => {
  it("knows a cell's center, decimal id, reach and ring as h3-js gives them", () => {
    const facts = new CellFacts()
    for (const cell of [
      latLngToCell(41.6, -93.6, 5),
      latLngToCell(-33.9, 151.2, 3),
      latLngToCell(64.1, -21.9, 7),
      "8009fffffffffff" /* a pentagon */
    ]) {
      const s = facts.slot(cell)
      const [lat, lng] = cellToLatLng(cell)
      expect([facts.lat[s], facts.lng[s], facts.decimal[s]]).toEqual([lat, lng, decimal(cell)])
      expect(facts.reach[s]).toBeGreaterThan(0)
      expect(facts.south[s]).toBeLessThan(facts.north[s])
      const ring = [...facts.ring(s)].map((r) => facts.decimal[r]).sort()
      expect(ring).toEqual(gridDisk(cell, 1).map(decimal).sort())
      expect(facts.slot(cell)).toBe(s)
    }
  })

  it("says 'first seen' once per cover, and again in the next", () => {
    const facts = new CellFacts()
    const s = facts.slot(latLngToCell(45, -100, 5))
    facts.startCover()
    expect([facts.firstSeen(s), facts.firstSeen(s)]).toEqual([true, false])
    facts.startCover()
    expect(facts.firstSeen(s)).toBe(true)
  })

  it("starts over once full, at a cover's start only, and answers as before", () => {
    const facts = new CellFacts(10)
    const cell = latLngToCell(45, -100, 5)
    facts.startCover()
    const first = facts.slot(cell)
    for (const r of facts.ring(first)) facts.ring(r) // far past 10 cells within one cover: kept meanwhile
    expect(facts.kept).toBeGreaterThan(10)
    expect(facts.decimal[first]).toBe(decimal(cell))
    facts.startCover()
    expect(facts.kept).toBe(0)
    const again = facts.slot(cell)
    expect([facts.decimal[again], facts.lat[again]]).toEqual([decimal(cell), cellToLatLng(cell)[0]])
    expect(facts.firstSeen(again)).toBe(true)
  })

  it("measures great circles on H3's sphere", () => {
    expect(km(0, 0, 0, 1)).toBeCloseTo((Math.PI * 6371.007180918475) / 180, 6)
    expect(km(10, 20, 10, 20)).toBe(0)
  })
})
