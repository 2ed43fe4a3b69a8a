import fc from "fast-check"
import { cellToLatLng, getHexagonEdgeLengthAvg, latLngToCell } from "h3-js"
import { describe, expect, it } from "vitest"
import { coverCorridor } from "../../../shared/geo/corridor.js"
import { routeCover } from "../../../shared/geo/routeCover.js"
import { haversineM } from "../../../shared/geo/distance.js"
import * as turf from "@turf/turf"

const alongOf = (line: ReadonlyArray<readonly [number, number]>) =>
  line.reduce<Array<number>>(
    (acc, p, i) => [...acc, i === 0 ? 0 : acc[i - 1] + haversineM(line[i - 1][1], line[i - 1][0], p[1], p[0])],
    []
  )

/** a wandering line of 2–100 pieces of up to 30 km, somewhere in the US or Canada */
const routeArb = fc
  .tuple(
    fc.double({ min: 26, max: 60, noNaN: true }),
    fc.double({ min: -124, max: -60, noNaN: true }),
    fc.array(
      fc.tuple(fc.double({ min: -0.25, max: 0.25, noNaN: true }), fc.double({ min: -0.25, max: 0.25, noNaN: true })),
      { minLength: 1, maxLength: 100 }
    )
  )
  .map(([lat, lng, steps]) => {
    const line: Array<[number, number]> = [[lng, lat]]
    for (const [dx, dy] of steps) line.push([line[line.length - 1][0] + dx, line[line.length - 1][1] + dy])
    return line
  })

const toDecimal = (h: string) => BigInt("0x" + h).toString()

describe("routeCover", () => {
  it("holds the cell of every point within the buffer of the line (property)", () => {
    fc.assert(
      fc.property(
        routeArb,
        fc.integer({ min: 10, max: 1000 }),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
            fc.double({ min: 0, max: 1, noNaN: true })
          ),
          { minLength: 20, maxLength: 20 }
        ),
        (line, bufferM, picks) => {
          const cover = new Set(routeCover(line, alongOf(line), bufferM).cells)
          const ls = turf.lineString(line)
          const length = turf.length(ls, { units: "meters" })
          for (const [f, angle, r] of picks) {
            const on = turf.along(ls, f * length, { units: "meters" }).geometry.coordinates
            // just inside the buffer, in any direction from a point of the line
            const p = turf.destination(on, r * bufferM * 0.98, (angle * 180) / Math.PI, { units: "meters" }).geometry
              .coordinates
            expect(cover.has(toDecimal(latLngToCell(p[1], p[0], 7)))).toBe(true)
          }
        }
      ),
      { numRuns: 150 }
    )
  })

  it("bounds the distance from any point to its res-7 cell's centre across the US and Canada", () => {
    const radius = getHexagonEdgeLengthAvg(7, "m") * 1.2
    let worst = 0
    fc.assert(
      fc.property(
        fc.double({ min: 24, max: 72, noNaN: true }),
        fc.double({ min: -170, max: -52, noNaN: true }),
        (lat, lng) => {
          const [clat, clng] = cellToLatLng(latLngToCell(lat, lng, 7))
          worst = Math.max(worst, haversineM(lat, lng, clat, clng))
        }
      ),
      { numRuns: 20_000 }
    )
    expect(worst).toBeLessThan(radius)
  })

  it("is a narrower band than the great-circle corridor's cover of the same line", () => {
    const line: Array<[number, number]> = [
      [-93.6, 41.6],
      [-92, 41.7],
      [-90, 41.5],
      [-88, 41.8]
    ]
    const along = alongOf(line)
    const tight = routeCover(line, along, 100)
    const wide = coverCorridor({ line: turf.lineString(line), lengthKm: along[along.length - 1] / 1000, bufferKm: 0.1 })
    expect(tight.res).toBe(7)
    expect(wide.res).toBe(7)
    expect(tight.cells.length).toBeLessThan(wide.cells.length * 0.6)
    expect(new Set(wide.cells).size).toBeGreaterThan(0)
  })
})
