import { describe, expect, it } from "vitest"
import { ibi511 } from "../../../pipeline/sources/ibi511.js"
import { decodeOk, ownFixture } from "../../support/adapterSuite.js"

// FORMATS.md: no recorded ibi511 payload exists in ../shared, so the suite runs on our own fixture

describe("ibi511 mapping", () => {
  it("maps epoch seconds, planned end as estimate, polyline and full closure", () => {
    const [crash, closure] = decodeOk(ibi511, ownFixture("ibi511/events_with_bad.json")).records
    expect(crash).toMatchObject({
      source_id: "FX-NY-1",
      type: "incident",
      sub_type: "Crash",
      cause: "accident",
      severity: "major",
      direction: "eastbound",
      start_time: "2026-11-01T16:00:00.000Z",
      end_time: null,
      estimated_end_time: "2026-11-01T18:00:00.000Z",
      lanes_affected: "Right lane",
      road_class: "interstate"
    })
    expect(crash.geometry).toEqual({
      type: "LineString",
      coordinates: [
        [-120.2, 38.5],
        [-120.95, 40.7],
        [-126.453, 43.252]
      ]
    })
    expect(closure).toMatchObject({
      source_id: "12345",
      type: "closure",
      severity: "major",
      direction: "both",
      cause: "roadwork",
      estimated_end_time: null
    })
  })
  it("says why each bad record was refused", () => {
    const reasons = decodeOk(ibi511, ownFixture("ibi511/events_with_bad.json")).rejected.map((r) => r.reason)
    expect(reasons[0]).toMatch(/invalid coordinates/)
    expect(reasons[1]).toMatch(/unknown EventType meteorShower/)
    expect(reasons[2]).toMatch(/ID: is missing/)
  })
})

describe("ibi511: the variants deployments document", () => {
  it("reads 511GA's shape: a string id, `Subtype` for the sub-type, IsFullClosure as text, and a comment kept", () => {
    const d = decodeOk(ibi511, [
      {
        ID: "GA-Events--1",
        RoadwayName: "I-75",
        DirectionOfTravel: "Northbound",
        Description: "Bridge work",
        Reported: 1793548800,
        StartDate: 1793548800,
        Latitude: 33.75,
        Longitude: -84.39,
        EventType: "roadwork",
        Subtype: "BridgeMaintenance",
        IsFullClosure: "true",
        Comment: "Open to local traffic only."
      },
      {
        ID: "GA-Events--2",
        RoadwayName: "I-85",
        Latitude: 33.8,
        Longitude: -84.3,
        EventType: "accidentsAndIncidents",
        IsFullClosure: "False",
        Severity: "Unknown"
      }
    ])
    expect(d.rejected).toEqual([])
    const [bridge, crash] = d.records
    expect(bridge).toMatchObject({
      type: "closure",
      sub_type: "BridgeMaintenance",
      severity: "major",
      title: "Bridge maintenance on I-75",
      metadata: { is_full_closure: true }
    })
    expect(bridge!.description).toBe("Bridge work\n\nOpen to local traffic only.")
    expect(crash).toMatchObject({
      type: "incident",
      severity: "moderate",
      quality_flags: ["severity_inferred"],
      metadata: { is_full_closure: false }
    })
  })
})
