import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { tpims } from "../../../pipeline/sources/tpims.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { saveModel } from "../../../shared/parking/modelStore.js"
import { fitParkingModel } from "../../../shared/parking/ParkingForecaster.js"
import type { ParkingReading } from "../../../shared/parking/readings.js"
import { decodeOk } from "../../support/adapterSuite.js"
import { E, routingWorld, W } from "../../support/routingWorld.js"

/**
 * HOS stops' lots carry the parking forecast for the driver's arrival, and a lot likely full then
 * is suggested after one likely to have room, with the reason. Two lots before a break's deadline
 * on I-1: "near" (closest to the deadline) is always full in its history, "early" always has room.
 */
const world = routingWorld()
beforeAll(world.start)
afterAll(world.stop)

const truck = { profile: "tractor", weight_t: 30, height_m: 4.0 }
/** 20 minutes of driving left before the break: the deadline falls about 31.7 km east of W */
const BREAK_DUE = { ruleset: "us", since_break_s: 1200 }
const HOUR = 3_600_000

const feed = {
  static: [
    {
      siteId: "ARR-EARLY",
      name: "I-1 lot early",
      relevantHighway: "I-1",
      location: { latitude: 40.0, longitude: -99.8, state: "NE" },
      capacity: 30
    },
    {
      siteId: "ARR-NEAR",
      name: "I-1 lot near",
      relevantHighway: "I-1",
      location: { latitude: 40.0, longitude: -99.7, state: "NE" },
      capacity: 30
    }
  ],
  dynamic: []
}

/** Ten days of polls 16 minutes apart: `near` full (0 free), `early` about 20 free. */
const history = (until: number) => {
  const out: Array<ParkingReading> = []
  let k = 0
  for (let at = until - 10 * 24 * HOUR; at <= until; at += 16 * 60_000, k++) {
    out.push({ site: "NE:ARR-NEAR", at, available: 0, low: false, capacity: 30, trend: null })
    out.push({ site: "NE:ARR-EARLY", at, available: 18 + (k % 5), low: false, capacity: 30, trend: null })
  }
  return out
}

describe("HOS stops and the parking forecast", () => {
  it("forecasts each suggested lot at the projected arrival and lists a lot likely full there after one likely to have room", async () => {
    const now = Date.now()
    const decoded = decodeOk(tpims, feed)
    await world.rt.runPromise(
      applyChanges(
        diffFeaturePoll({
          source: "arr-tpims",
          polledAt: new Date(now),
          now: new Date(now),
          records: decoded.records,
          rawHashes: decoded.rawHashes,
          presentIds: [],
          prev: new Map()
        }).changes
      )
    )
    const departure = new Date(now + HOUR).toISOString()
    const ask = () =>
      world.post({ origin: W, destination: E, departure_time: departure, truck: { ...truck, hos: BREAK_DUE } })

    // no model yet: closest to the deadline first, no forecasts
    const before = (await ask()).body.routes[0].hos[0]
    expect(before.suggested_stops.map((s: { name: string }) => s.name)).toEqual(["I-1 lot near", "I-1 lot early"])
    expect(before.suggested_stops[0].expected_available).toBeUndefined()

    const model = fitParkingModel(history(now), { fittedAt: now })
    await world.rt.runPromise(saveModel(model, { seeded: false, readings: 0, fitMs: 0 }))
    // the same trip asked again sees the forecasts
    const after = (await ask()).body.routes[0].hos[0]
    const [first, second] = after.suggested_stops
    expect(first).toMatchObject({ name: "I-1 lot early", expected_available: { p50: expect.any(Number) } })
    expect(first.expected_available.p50).toBeGreaterThan(10)
    expect(first.expected_available.p_full).toBeLessThan(0.5)
    expect(first.note).toBeUndefined()
    expect(second).toMatchObject({
      name: "I-1 lot near",
      note: expect.stringMatching(
        /^likely full at arrival \(\d+ % chance of no space\): listed after the lots likely to have room$/
      )
    })
    expect(second.expected_available.p_full).toBeGreaterThanOrEqual(0.5)
    // the forecast is for when the driver gets there: after the departure, before the deadline
    const arrival = Date.parse(first.expected_available.at)
    expect(arrival).toBeGreaterThan(now + HOUR)
    expect(arrival).toBeLessThan(Date.parse(after.legal_deadline))
    // and the driver is planned to stop at the lot with room
    expect(after.distance_along_route_m).toBe(first.distance_along_route_m)
  })
})
