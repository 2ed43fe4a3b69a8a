import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { cellToParent, getPentagons, cellToLatLng, latLngToCell } from "h3-js"
import { cellsOf, r3Neighbourhood } from "../../../shared/geo/h3cells.js"

const decimal = (h: string) => BigInt("0x" + h).toString()

describe("cellsOf", () => {
  it("gives the same res-3 and res-5 cells as h3's own parent lookup, anywhere on Earth", () => {
    fc.assert(
      fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), (lat, lng) => {
        const r7 = latLngToCell(lat, lng, 7)
        expect(cellsOf(lat, lng)).toEqual({ r3: decimal(cellToParent(r7, 3)), r5: decimal(cellToParent(r7, 5)), r7: decimal(r7) })
      }),
      { numRuns: 5000 }
    )
  })

  it("handles points in pentagons", () => {
    for (const p of getPentagons(7)) {
      const [lat, lng] = cellToLatLng(p)
      expect(cellsOf(lat, lng)).toEqual({ r3: decimal(cellToParent(p, 3)), r5: decimal(cellToParent(p, 5)), r7: decimal(p) })
    }
  })

  it("r3Neighbourhood is the res-3 cell and its six neighbours", () => {
    const ring = r3Neighbourhood(cellsOf(41.6, -93.6).r3)
    expect(ring).toHaveLength(7)
    expect(ring).toContain(cellsOf(41.6, -93.6).r3)
  })
})
