import { describe, expect, it } from "vitest"
import { cars } from "../../../pipeline/sources/cars.js"
import {
  decodeOk,
  ownFixture,
  readPayload,
  SHARED_UPSTREAM,
  sharedAvailable,
  sharedNote
} from "../../support/adapterSuite.js"

sharedNote()

describe("cars mapping", () => {
  const d = decodeOk(cars, ownFixture("cars/four_events_one_bad.json"))
  const [bridge, chains] = d.records

  it("maps a closed traffic pattern to a closure, with severity, direction, lanes and times", () => {
    expect(bridge).toMatchObject({
      source_id: "FX-CARS-1",
      type: "closure",
      sub_type: "road_construction",
      cause: "roadwork",
      severity: "major",
      status: "active",
      direction: "both",
      affected_roads: ["Highway 1"],
      lanes_affected: "Closed",
      start_time: "2026-11-01T08:00:00.000Z",
      end_time: "2026-11-02T08:00:00.000Z",
      estimated_end_time: null,
      source_updated_at: "2026-11-01T16:00:00.000Z",
      title: "Bridge work on Highway 1 both directions at Cheam Ave",
      description: "Highway 1, in both directions. Bridge work at Cheam Ave. Road closed."
    })
    expect(bridge.metadata).toMatchObject({
      time_zone: "America/Vancouver",
      linear_reference_km: 121.5,
      message_number: 501
    })
  })

  it("maps a commercial chain-up to a truck restriction over the whole line, its unset end an estimate", () => {
    expect(chains).toMatchObject({
      type: "restriction",
      sub_type: "commercial_chain_up",
      cause: "weather",
      title: "Commercial chain up in effect on Highway 5 from Hope to Merritt",
      end_time: null,
      estimated_end_time: "2026-11-02T17:00:00.000Z",
      geometry: {
        type: "LineString",
        coordinates: [
          [-121.4421, 49.3801],
          [-121.0102, 49.6523],
          [-120.7888, 50.1121]
        ]
      }
    })
    expect(chains.metadata.chain_up).toEqual({ commercial: true, requirement: "Commercial chain up in effect" })
  })

  it("skips a draft and quarantines an event with nowhere to put it", () => {
    expect(d.records.map((r) => r.source_id)).not.toContain("FX-CARS-DRAFT")
    expect(d.rejected).toEqual([
      expect.objectContaining({ source_id: "FX-CARS-NOWHERE", reason: "no usable geometry or geo-location" })
    ])
  })

  it.skipIf(!sharedAvailable)("reads DriveBC's real chain-ups as commercial truck restrictions", () => {
    const all = decodeOk(cars, readPayload(`${SHARED_UPSTREAM}/cars/drivebc_cars_feed_list_of_chain_ups.json`)).records
    expect(all.every((e) => e.type === "restriction" && e.sub_type === "commercial_chain_up")).toBe(true)
    expect(all.find((e) => e.source_id === "DBCCNUP-127491")?.title).toBe(
      "Commercial chain up in effect on Highway 37 from KM 52.4 to KM 52.3"
    )
    const five = decodeOk(cars, readPayload(`${SHARED_UPSTREAM}/cars/drivebc_cars_feed_list_of_five.json`)).records
    expect(five.find((e) => e.source_id === "DBC-46014")).toMatchObject({
      type: "closure",
      severity: "major",
      affected_roads: ["Arrow Park Ferry"]
    })
  })
})

describe("cars: every record a real CARS feed sends is read", () => {
  const d = decodeOk(cars, ownFixture("cars/loose_shapes.json"))
  it("reads descriptions without a kind, with kind as a string, and bare phrases, and categories in any case", () => {
    expect(d.rejected).toEqual([])
    expect(d.records.map((r) => r.source_id)).toEqual(["FX-LOOSE-1", "FX-LOOSE-2", "FX-LOOSE-3"])
    const [work, ice, unknown] = d.records
    expect(work).toMatchObject({
      type: "construction",
      cause: "roadwork",
      direction: "eastbound",
      affected_roads: ["US 30"],
      title: "Lane closed on US 30 eastbound"
    })
    // a closed road is a closure, and never minor
    expect(ice).toMatchObject({
      type: "closure",
      severity: "major",
      lanes_affected: "Closed in both directions",
      quality_flags: ["severity_inferred"]
    })
    // a category the mapping does not know yet is an advisory, its category kept
    expect(unknown).toMatchObject({ type: "advisory", metadata: { headline_category: "SOMETHING_NEW" } })
    expect(unknown!.description).not.toBe("")
  })
})
