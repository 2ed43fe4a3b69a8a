import { describe, expect, it } from "vitest"
import { ibi511 } from "../../../pipeline/sources/ibi511.js"
import { decodeOk, ownFixture } from "../../support/adapterSuite.js"

// FORMATS.md: no recorded ibi511 payload exists in ../shared, so the suite runs on our own fixture

describe("ibi511 mapping", () => {
  it("maps epoch seconds, planned end as estimate, polyline and full closure", () => {
    const [crash, closure] = decodeOk(ibi511, ownFixture("ibi511/events_with_bad.json")).records
    expect(crash).toMatchObject({
      source_id: "FX-NY-1", type: "incident", sub_type: "Crash", cause: "accident", severity: "major", direction: "eastbound",
      start_time: "2026-11-01T16:00:00.000Z", end_time: null, estimated_end_time: "2026-11-01T18:00:00.000Z",
      lanes_affected: "Right lane", road_class: "interstate"
    })
    expect(crash.geometry).toEqual({ type: "LineString", coordinates: [[-120.2, 38.5], [-120.95, 40.7], [-126.453, 43.252]] })
    expect(closure).toMatchObject({ source_id: "12345", type: "closure", severity: "major", direction: "both", cause: "roadwork", estimated_end_time: null })
  })
  it("says why each bad record was refused", () => {
    const reasons = decodeOk(ibi511, ownFixture("ibi511/events_with_bad.json")).rejected.map((r) => r.reason)
    expect(reasons[0]).toMatch(/invalid coordinates/)
    expect(reasons[1]).toMatch(/unknown EventType meteorShower/)
    expect(reasons[2]).toMatch(/ID: is missing/)
  })
})
