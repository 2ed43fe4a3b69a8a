import { describe, expect, it } from "vitest"
import { haversineM } from "../../../shared/geo/distance.js"
import { grownBox, shapeBox } from "../../../shared/geo/shapeBox.js"

describe("an event's shape box", () => {
  it("holds every usable vertex of its geometry, however nested, and its own point", () => {
    const multi = {
      type: "MultiLineString",
      coordinates: [
        [
          [-93.5, 41.6],
          [-93.2, 41.7]
        ],
        [
          [-93.9, 41.4],
          [999, 41.0],
          [-93.8, "x"]
        ]
      ]
    }
    expect(shapeBox(multi, 42.0, -93.0)).toEqual([-93.9, 41.4, -93.0, 42.0])
    expect(shapeBox(null, 41.6, -93.6)).toEqual([-93.6, 41.6, -93.6, 41.6])
    expect(shapeBox({ coordinates: "not coordinates" }, 41.6, -93.6)).toEqual([-93.6, 41.6, -93.6, 41.6])
  })

  it("grown by a distance, takes in every point that far from it, at any latitude", () => {
    const R = 6_371_008.8
    const deg = (m: number) => ((m / R) * 180) / Math.PI
    for (const lat of [0, 25, 49, 64, 71]) {
      const b = shapeBox(
        {
          coordinates: [
            [-100, lat],
            [-99.9, lat + 0.05]
          ]
        },
        lat,
        -100
      )
      const g = grownBox(b, 1000)
      const inside = ([lng, la]: [number, number]) => lng >= g[0] && lng <= g[2] && la >= g[1] && la <= g[3]
      // 999 m west of the north-west corner, north of it, east of the south-east corner, south of it
      const cosN = Math.cos((b[3] * Math.PI) / 180)
      const points: Array<[number, number]> = [
        [b[0] - deg(999) / cosN, b[3]],
        [b[0], b[3] + deg(999)],
        [b[2] + deg(999) / Math.cos((b[1] * Math.PI) / 180), b[1]],
        [b[2], b[1] - deg(999)]
      ]
      for (const [x, y] of points) {
        const d = Math.min(haversineM(y, x, b[3], b[0]), haversineM(y, x, b[1], b[2]))
        expect(d).toBeGreaterThan(990)
        expect(d).toBeLessThan(1000)
        expect(inside([x, y]), `at ${lat}°: ${x},${y}`).toBe(true)
      }
      // and a point 3 km out is not taken in
      expect(inside([b[0] - deg(3000) / cosN, b[3]])).toBe(false)
    }
  })
})
