import { describe, expect, it } from "vitest"
import fc from "fast-check"
import * as turf from "@turf/turf"
import { cellToParent, getPentagons, cellToLatLng, latLngToCell } from "h3-js"
import { cellsOf, coverBbox, coverCircle, parentAt5 } from "../../../shared/geo/h3cells.js"

const decimal = (h: string) => BigInt("0x" + h).toString()

describe("cellsOf", () => {
  it("gives the same res-3 and res-5 cells as h3's own parent lookup, anywhere on Earth", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        (lat, lng) => {
          const r7 = latLngToCell(lat, lng, 7)
          expect(cellsOf(lat, lng)).toEqual({
            r3: decimal(cellToParent(r7, 3)),
            r5: decimal(cellToParent(r7, 5)),
            r7: decimal(r7)
          })
        }
      ),
      { numRuns: 5000 }
    )
  })

  it("handles points in pentagons", () => {
    for (const p of getPentagons(7)) {
      const [lat, lng] = cellToLatLng(p)
      expect(cellsOf(lat, lng)).toEqual({
        r3: decimal(cellToParent(p, 3)),
        r5: decimal(cellToParent(p, 5)),
        r7: decimal(p)
      })
    }
  })
})

/** A point `km` from a center along a bearing, on the sphere the SQL test uses (6,371.0088 km). */
const toward = (lat: number, lng: number, km: number, bearing: number) => {
  const [pLng, pLat] = turf.destination([lng, lat], km, bearing, { units: "kilometers" }).geometry.coordinates
  return { lat: pLat, lng: pLng }
}

describe("parentAt5", () => {
  it("gives h3's own res-5 parent of a cell at any resolution from 5 to 15, anywhere on Earth", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.integer({ min: 5, max: 15 }),
        (lat, lng, res) => {
          const h = latLngToCell(lat, lng, res)
          expect(parentAt5(decimal(h))).toBe(decimal(cellToParent(h, 5)))
        }
      ),
      { numRuns: 5000 }
    )
  })
})

describe("covers: every point the exact test keeps lies in a cell of the cover", () => {
  const inCircle = (lat: number, lng: number, radiusKm: number, share: number, bearing: number) => {
    const cover = coverCircle(lat, lng, radiusKm)
    expect(cover).not.toBeNull()
    const p = toward(lat, lng, radiusKm * share, bearing)
    const cell = decimal(latLngToCell(p.lat, p.lng, cover!.res))
    expect(cover!.cells).toContain(cell)
  }

  it("circles anywhere, points inside and on the rim", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.double({ min: 0.05, max: 400, noNaN: true }),
        fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
        fc.double({ min: 0, max: 360, noNaN: true }),
        inCircle
      ),
      { numRuns: 3000 }
    )
  })

  it("circles around pentagons, where the grid bends", () => {
    for (const [res, radiusKm] of [
      [3, 500],
      [5, 60],
      [7, 5]
    ] as const) {
      for (const p of getPentagons(res)) {
        const [lat, lng] = cellToLatLng(p)
        if (Math.abs(lat) > 80) continue
        expect(coverCircle(lat, lng, radiusKm)!.res).toBe(res)
        for (let b = 0; b < 360; b += 30) for (const share of [0.3, 0.7, 1]) inCircle(lat, lng, radiusKm, share, b)
      }
    }
  })

  it("boxes anywhere, points inside and on the edges", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -80, max: 75, noNaN: true }),
        fc.double({ min: -180, max: 170, noNaN: true }),
        fc.double({ min: 0.001, max: 5, noNaN: true }),
        fc.double({ min: 0.001, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (minLat, minLng, dLat, dLng, u, v) => {
          const [maxLat, maxLng] = [minLat + dLat, minLng + dLng]
          const cover = coverBbox(minLng, minLat, maxLng, maxLat)
          if (cover === null) return // too many cells: the exact test alone decides
          for (const [lat, lng] of [
            [minLat + u * dLat, minLng + v * dLng],
            [minLat, minLng + v * dLng],
            [maxLat, minLng + u * dLng],
            [minLat + u * dLat, maxLng]
          ]) {
            expect(cover.cells).toContain(decimal(latLngToCell(lat, lng, cover.res)))
          }
        }
      ),
      { numRuns: 3000 }
    )
  })

  it("stays small: a 50 km circle and a 1° box take tens of cells, and very large areas none", () => {
    expect(coverCircle(40, -100, 50)!.cells.length).toBeLessThan(80)
    expect(coverBbox(-100, 40, -99, 41)!.cells.length).toBeLessThan(80)
    expect(coverCircle(40, -100, 2500)).toBeNull()
    expect(coverBbox(-100, 86, -99, 87)).toBeNull()
    // a national map view: more cells than a prefilter is worth, so none (the exact test alone)
    expect(coverBbox(-128, 23, -62, 55)).toBeNull()
    expect(coverBbox(-130, 20, -60, 55)).toBeNull()
    // the largest kept covers stay within the queries' 1,000-cell prefilter cap
    for (const [w, s_, e, n] of [
      [-100, 30, -80, 45],
      [-125, 45, -110, 55],
      [-80, 25, -70, 45]
    ]) {
      const c = coverBbox(w, s_, e, n)
      if (c) expect(c.cells.length).toBeLessThanOrEqual(1000)
    }
  })
})
