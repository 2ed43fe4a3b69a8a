import * as turf from "@turf/turf"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { RouteLine } from "../../../shared/geo/routeLine.js"
import { haversineM } from "../../../shared/geo/distance.js"

const line: Array<[number, number]> = [
  [-100, 40],
  [-99.7, 40.05],
  [-99.3, 39.9],
  [-99.0, 40.2]
]
const along = line.reduce<Array<number>>(
  (acc, p, i) => [...acc, i === 0 ? 0 : acc[i - 1] + haversineM(line[i - 1][1], line[i - 1][0], p[1], p[0])],
  []
)

describe("RouteLine", () => {
  it("agrees with turf's great-circle distance and position along the line within 0.3 % (property)", () => {
    const index = new RouteLine(line, along, 1000)
    const ls = turf.lineString(line)
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -900, max: 900, noNaN: true }),
        (f, offM) => {
          const on = turf.along(ls, f * turf.length(ls), { units: "meters" }).geometry.coordinates
          const p = [on[0], on[1] + offM / 111_320]
          const expected = turf.pointToLineDistance(p as [number, number], ls, { units: "meters" })
          const got = index.place(p[0], p[1])
          if (expected > 995) return true
          expect(got).toBeDefined()
          expect(Math.abs(got!.distanceM - expected)).toBeLessThan(0.5 + expected * 0.003)
          const nearest = turf.nearestPointOnLine(ls, p as [number, number], { units: "meters" })
          expect(Math.abs(got!.alongM - (nearest.properties.location ?? 0))).toBeLessThan(25)
        }
      ),
      { numRuns: 300 }
    )
  })

  it("finds nothing beyond its distance, and places a crossing line at 0 m", () => {
    const index = new RouteLine(line, along, 100)
    expect(index.place(-99.5, 41)).toBeUndefined()
    const crossing = index.placeGeometry(
      {
        type: "LineString",
        coordinates: [
          [-99.85, 39.5],
          [-99.85, 40.5]
        ]
      },
      -99.85,
      39.5
    )
    expect(crossing).toBeDefined()
    expect(crossing!.distanceM).toBeLessThan(100)
    expect(crossing!.segment).toBe(0)
  })
})
