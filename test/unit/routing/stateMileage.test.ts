import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { StateBoundaries } from "../../../shared/geo/stateMileage.js"
import { haversineM } from "../../../shared/geo/distance.js"
import { mileageByState, mileageCsv, regionLengths } from "../../../shared/routing/tolls/stateMiles.js"

const rect = (code: string, x1: number, y1: number, x2: number, y2: number) => ({
  properties: { postal: code },
  geometry: {
    type: "Polygon",
    coordinates: [
      [
        [x1, y1],
        [x2, y1],
        [x2, y2],
        [x1, y2],
        [x1, y1]
      ]
    ]
  }
})
// three squares side by side on the equator, and a gap (sea) between B and C's neighbour D
const boundaries = new StateBoundaries(
  {
    features: [rect("AA", 0, -1, 1, 1), rect("BB", 1, -1, 2, 1), rect("CC", 2, -1, 3, 1), rect("DD", 3.5, -1, 4.5, 1)]
  },
  (p) => String(p.postal)
)
const DEG = haversineM(0, 0, 0, 1) // one degree of the equator

describe("per-state mileage", () => {
  it("splits a line exactly at rectangle edges, longest first", () => {
    const line = [
      [0.5, 0],
      [2.5, 0]
    ] as const
    const rows = boundaries.split(line, 2 * DEG)
    expect(rows.map((r) => r.jurisdiction)).toEqual(["BB", "AA", "CC"])
    expect(rows[0].distance_m).toBeCloseTo(DEG, 0)
    expect(rows[1].distance_m).toBeCloseTo(DEG / 2, 0)
    expect(rows[2].distance_m).toBeCloseTo(DEG / 2, 0)
    expect(rows[0].distance_mi).toBeCloseTo(DEG / 1609.344, 1)
  })

  it("cuts inside a segment and across many segments alike", () => {
    const line = [
      [0.25, 0],
      [0.75, 0],
      [1.5, 0],
      [1.75, 0],
      [2.75, 0]
    ] as const
    const rows = Object.fromEntries(boundaries.split(line, 2.5 * DEG).map((r) => [r.jurisdiction, r.distance_m]))
    expect(rows.AA).toBeCloseTo(0.75 * DEG, 0)
    expect(rows.BB).toBeCloseTo(DEG, 0)
    expect(rows.CC).toBeCloseTo(0.75 * DEG, 0)
  })

  it("finds a border that falls exactly on a route vertex", () => {
    const rows = Object.fromEntries(
      boundaries
        .split(
          [
            [0.5, 0],
            [1, 0],
            [1.5, 0],
            [2, 0],
            [2.5, 0]
          ],
          2 * DEG
        )
        .map((r) => [r.jurisdiction, r.distance_m])
    )
    expect(rows).toEqual({ AA: expect.closeTo(DEG / 2, 0), BB: expect.closeTo(DEG, 0), CC: expect.closeTo(DEG / 2, 0) })
  })

  it("counts a stretch outside every polygon for the jurisdiction before it", () => {
    const rows = Object.fromEntries(
      boundaries
        .split(
          [
            [2.5, 0],
            [4, 0]
          ],
          1.5 * DEG
        )
        .map((r) => [r.jurisdiction, r.distance_m])
    )
    expect(rows.CC).toBeCloseTo(1.0 * DEG, 0)
    expect(rows.DD).toBeCloseTo(0.5 * DEG, 0)
  })

  it("sums to the route's length within 0.1 % whatever the line (property)", () => {
    const point = fc.tuple(
      fc.double({ min: -0.5, max: 5, noNaN: true }),
      fc.double({ min: -0.9, max: 0.9, noNaN: true })
    )
    fc.assert(
      fc.property(
        fc.array(point, { minLength: 2, maxLength: 30 }),
        fc.double({ min: 1000, max: 1e7, noNaN: true }),
        (pts, total) => {
          const rows = boundaries.split(pts, total)
          const inside = pts.some(([x]) => x >= 0 && x <= 4.5)
          if (!inside || rows.length === 0) return true
          const sum = rows.reduce((s, r) => s + r.distance_m, 0)
          return Math.abs(sum - total) <= total * 0.001
        }
      )
    )
  })
})

describe("a route's state miles (stateMiles.ts)", () => {
  const sections = (toll: string | null) => [
    { summary: "free", toll: null, from_index: 0, to_index: 1, distance_m: DEG, duration_s: 0 },
    { summary: "tolled", toll, from_index: 1, to_index: 2, distance_m: DEG, duration_s: 0 }
  ]
  const line = {
    coordinates: [
      [0.5, 0],
      [1.5, 0],
      [2.5, 0]
    ] as const,
    distance_m: 2 * DEG
  }

  it("takes the engine's own regions when it has them, and never reads the polygons then", () => {
    const regions = [{ region: "XX", distance_m: 2 * DEG, toll_m: DEG }]
    expect(
      regionLengths({ ...line, sections: sections("t"), regions }, () => {
        throw new Error("polygons read")
      })
    ).toBe(regions)
  })

  it("falls back to the polygons, the tolled part cut from the tolled sections", () => {
    const rows = Object.fromEntries(
      regionLengths({ ...line, sections: sections("t") }, () => boundaries).map((r) => [r.region, r])
    )
    expect(rows.AA.distance_m).toBeCloseTo(DEG / 2, 0)
    expect(rows.BB.distance_m).toBeCloseTo(DEG, 0)
    expect(rows.AA.toll_m).toBe(0)
    expect(rows.BB.toll_m).toBeCloseTo(DEG / 2, 0)
    expect(rows.CC.toll_m).toBeCloseTo(DEG / 2, 0)
    expect(regionLengths({ ...line, sections: sections(null) }, () => boundaries).every((r) => r.toll_m === 0)).toBe(
      true
    )
  })

  it("writes mileage_by_state longest first and the CSV with an empty cell for an unknown tolled part", () => {
    const regions = [
      { region: "AA", distance_m: 1609.344, toll_m: 0 },
      { region: "BB", distance_m: 16_093.44, toll_m: 1609.344 }
    ]
    expect(mileageByState(regions)).toEqual([
      { jurisdiction: "BB", distance_m: 16_093.4, distance_mi: 10 },
      { jurisdiction: "AA", distance_m: 1609.3, distance_mi: 1 }
    ])
    expect(mileageCsv(regions)).toBe("state,miles,km,toll_miles\r\nBB,10.00,16.093,1.00\r\nAA,1.00,1.609,0.00\r\n")
    expect(mileageCsv([{ region: "AA", distance_m: 1000, toll_m: null }])).toBe(
      "state,miles,km,toll_miles\r\nAA,0.62,1.000,\r\n"
    )
  })
})
