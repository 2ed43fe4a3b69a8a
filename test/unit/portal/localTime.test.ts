import { describe, expect, it } from "vitest"
import { formatLocal, localNow, pointAlong, zonedToUtc, zoneAt } from "../../../portal/src/route/localTime.js"

describe("times in the zone of their place (the route planner)", () => {
  it("finds the zone of a place, across the zone lines inside a state", () => {
    expect(zoneAt(41.8781, -87.6298)).toBe("America/Chicago")
    expect(zoneAt(31.7619, -106.485)).toBe("America/Denver") // El Paso, Texas: Mountain time
    expect(zoneAt(43.6532, -79.3832)).toBe("America/Toronto")
    expect(zoneAt(33.4484, -112.074)).toBe("America/Phoenix") // no daylight saving
    expect(zoneAt(95, 0)).toBe("UTC") // not a place: no throw
  })

  it("reads a date-time input as the clock at the start reads it, daylight saving included", () => {
    expect(zonedToUtc("2030-03-04T08:00", "America/Chicago")).toBe("2030-03-04T14:00:00.000Z") // CST
    expect(zonedToUtc("2030-07-04T08:00", "America/Chicago")).toBe("2030-07-04T13:00:00.000Z") // CDT
    expect(zonedToUtc("2030-07-04T08:00", "America/Phoenix")).toBe("2030-07-04T15:00:00.000Z")
    // the autumn hour that happens twice, and the spring hour that never does
    expect(zonedToUtc("2030-11-03T01:30", "America/New_York")).toMatch(/^2030-11-03T0[56]:30:00.000Z$/)
    expect(zonedToUtc("2030-03-10T02:30", "America/New_York")).toBe("2030-03-10T07:30:00.000Z")
    expect(zonedToUtc("tomorrow", "America/Chicago")).toBeUndefined()
    expect(localNow("America/Chicago", Date.parse("2030-03-04T14:00:00Z"))).toBe("2030-03-04T08:00")
  })

  it("writes a moment with the zone named", () => {
    expect(formatLocal("2030-03-04T14:00:00.000Z", "America/Chicago")).toBe("Mar 4, 2030, 08:00 CST")
    expect(formatLocal("2030-07-04T14:00:00.000Z", "America/Toronto")).toBe("Jul 4, 2030, 10:00 EDT")
  })

  it("finds the point a distance along the route, scaled to the route's own length", () => {
    const line = [
      [-100, 40],
      [-99, 40],
      [-98, 40]
    ]
    // 170.4 km between the points; the route says 172 km in all (its calibration)
    expect(pointAlong(line, 0, 172_000)).toEqual([-100, 40])
    expect(pointAlong(line, 86_000, 172_000)).toEqual([-99, 40])
    expect(pointAlong(line, 87_000, 172_000)).toEqual([-98, 40])
    expect(pointAlong(line, 500_000, 172_000)).toEqual([-98, 40])
    expect(pointAlong([], 10, 10)).toEqual([0, 0])
  })
})
