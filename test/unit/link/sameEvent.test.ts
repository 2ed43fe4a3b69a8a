import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { tmdd } from "../../../pipeline/sources/tmdd.js"
import { wzdx } from "../../../pipeline/sources/wzdx.js"
import {
  gapLowerBound,
  gapMeters,
  judgePair,
  type LinkSubject,
  roadKeys
} from "../../../pipeline/stages/materialize/link/sameEvent.js"
import { roadKey } from "../../../shared/domain/Road.js"
import { tmddFeed } from "../../../infra/simulator/payloads/tmdd.js"
import { wzdxFeed } from "../../../infra/simulator/payloads/wzdx.js"
import { decodeOk } from "../../support/adapterSuite.js"

const subject = (
  source: string,
  o: { source_id: string } & Omit<LinkSubject, "id" | "source" | "road_keys">
): LinkSubject => ({ ...o, id: `${source}:${o.source_id}`, source, road_keys: roadKeys(o.affected_roads) })

// one I-80 lane closure reported twice, in two formats: a WZDx work zone and a TMDD road-work event
const zone = subject(
  "wzdx",
  decodeOk(wzdx, wzdxFeed(0)).records.find((r) => r.source_id.startsWith("5a1f0c2e-0002"))!
)
const feu = subject(
  "tmdd",
  decodeOk(tmdd, tmddFeed()).records.find((r) => r.source_id === "IA-TMC-4107")!
)
const GAP = 1000

const shift = (g: LinkSubject["geometry"], dLng: number) =>
  g && g.type === "LineString"
    ? { ...g, coordinates: (g.coordinates as Array<[number, number]>).map(([x, y]) => [x + dLng, y]) }
    : g

describe("one event across sources: the judgement", () => {
  it("links the WZDx work zone and the TMDD road work on the same stretch of I-80", () => {
    expect(zone).toMatchObject({ type: "construction", direction: "northbound" })
    expect(feu).toMatchObject({ type: "construction", direction: "northbound" })
    const j = judgePair(zone, feu, GAP)
    expect(j).not.toBeNull()
    expect(j!.reason).toMatch(/^same road I-80 \(northbound\), \d+ m apart, overlapping times, construction$/)
    expect(j!.confidence).toBeGreaterThan(0.9)
    expect(judgePair(feu, zone, GAP)).toEqual(j) // symmetric
  })

  it("does not link the same road in the other direction", () => {
    expect(judgePair(zone, { ...feu, direction: "southbound" }, GAP)).toBeNull()
  })

  it("does not link reports far apart on the same road (about 8 km east)", () => {
    const far = { ...feu, geometry: shift(feu.geometry, 0.1), longitude: feu.longitude + 0.1 }
    expect(gapMeters(zone, far)).toBeGreaterThan(7000)
    expect(judgePair(zone, far, GAP)).toBeNull()
    expect(judgePair(zone, far, 10_000)).not.toBeNull() // the distance is the configurable part
  })

  it("does not link disjoint times: the same stretch worked on again in January", () => {
    const later = { ...feu, start_time: "2027-01-04T06:00:00.000Z", end_time: "2027-01-20T23:00:00.000Z" }
    expect(judgePair(zone, later, GAP)).toBeNull()
  })

  it("does not link another road, incompatible types, or two reports from one source", () => {
    expect(judgePair(zone, { ...feu, affected_roads: ["I-35"], road_keys: ["I-35"] }, GAP)).toBeNull()
    expect(judgePair(zone, { ...feu, type: "weather" }, GAP)).toBeNull()
    expect(judgePair(zone, { ...feu, source: zone.source }, GAP)).toBeNull()
    expect(
      judgePair({ ...zone, type: "incident", cause: "hazard" }, { ...feu, type: "incident", cause: "accident" }, GAP)
    ).toBeNull() // a rockfall beside a crash
    expect(
      judgePair({ ...zone, type: "incident", cause: "hazard" }, { ...feu, type: "incident", cause: null }, GAP)
    ).not.toBeNull()
  })

  it("links a work zone with a closure of it, with less confidence than an exact match; an unstated direction does not contradict", () => {
    const closure = judgePair(zone, { ...feu, type: "closure", direction: null }, GAP)
    expect(closure?.reason).toMatch(/northbound \/ unstated.*construction \/ closure/)
    expect(closure!.confidence).toBeLessThan(judgePair(zone, feu, GAP)!.confidence)
    // no end: still going
    expect(judgePair(zone, { ...feu, end_time: null, estimated_end_time: null }, GAP)).not.toBeNull()
  })

  it("spells one road one way across agencies", () => {
    expect(["I-80", "I 80 EB", "Interstate 80", "IH-80", "i80"].map(roadKey)).toEqual(Array(5).fill("I-80"))
    expect(["US 6", "U.S. Highway 6", "US-6"].map(roadKey)).toEqual(Array(3).fill("US-6"))
    expect(["SR 14", "Hwy 14", "CO-14", "Highway 14", "Route 14"].map(roadKey)).toEqual(Array(5).fill("R-14"))
    expect(roadKey("Main Street")).toBe("MAIN ST")
    expect(roadKey("  ")).toBeNull()
  })
})

describe("gapLowerBound", () => {
  const shape = (lng: number, lat: number, dx: number, dy: number, line: boolean): LinkSubject => ({
    id: `s${lng}${lat}`,
    source: "x",
    type: "construction",
    cause: null,
    direction: null,
    affected_roads: [],
    road_keys: [],
    start_time: null,
    end_time: null,
    latitude: lat,
    longitude: lng,
    geometry: line
      ? {
          type: "LineString",
          coordinates: [
            [lng, lat],
            [lng + dx, lat + dy]
          ]
        }
      : null
  })
  it("measures a line whose two vertices all but coincide as the point it is (turf answers 0 for it)", () => {
    // found by the property below (seed -1988952855): a point 5.6 km north of a 7e-15° segment
    const a = shape(-52.39459843674578, 0, 0, 0, false)
    const b = shape(-52.39459843674578, -0.04999999999949104, 3.552713678800502e-15, 0, true)
    expect(gapMeters(a, b)).toBeCloseTo(5559.75, 1)
    expect(gapLowerBound(a, b)).toBeLessThanOrEqual(gapMeters(a, b))
  })
  it("never exceeds the exact gap, so the box test rejects only pairs the exact test would", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -150, max: -50, noNaN: true }),
        fc.double({ min: -60, max: 75, noNaN: true }),
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        fc.boolean(),
        fc.boolean(),
        (lng, lat, ox, oy, dx, dy, la, lb) => {
          const a = shape(lng, lat, dx, dy, la)
          const b = shape(lng + ox, lat + oy, -dy, dx, lb)
          // 1 cm of slack: turf's point-to-line distance and the box bound differ at millimetres
          // beside a segment a fraction of a millimetre long (seed 756329197: 43.7 mm against
          // 41.8 mm); links are judged at metres
          expect(gapLowerBound(a, b)).toBeLessThanOrEqual(gapMeters(a, b) + 1e-2)
        }
      ),
      {
        numRuns: 2000,
        examples: [
          [-50, -0.006067050672280515, -3.9354170056071785e-7, 0, -1.848975670053904e-9, 0, false, true],
          [
            -50.53929871679834,
            -3.221969868874567e-71,
            -1.8804513501891055e-11,
            0,
            -1.7389268352030328e-75,
            0,
            false,
            true
          ]
        ]
      }
    )
  })
})
