import { describe, expect, it } from "vitest"
import { navjoy } from "../../../pipeline/sources/navjoy.js"
import { decodeOk, ownFixture, sharedNote } from "../../support/adapterSuite.js"

sharedNote()

describe("navjoy mapping", () => {
  const d = decodeOk(navjoy, ownFixture("navjoy/permits.json"))
  const [deck, speed] = d.records

  it("maps a work zone permit: its polygon kept whole, a full closure, direction, span and planned times", () => {
    expect(deck).toMatchObject({
      source_id: "ConstructionWorkZone-fx-0001",
      type: "closure",
      sub_type: "bridge deck repair",
      cause: "roadwork",
      severity: "major",
      status: "active",
      affected_roads: ["I-70"],
      direction: "westbound",
      lanes_affected: "Full closure of westbound lanes nightly",
      title: "Bridge Deck Repair on I-70 westbound from Kipling St to Wadsworth Blvd",
      start_time: null,
      estimated_start_time: "2026-11-02T04:00:00.000Z",
      estimated_end_time: "2026-11-20T12:00:00.000Z",
      geometry: { type: "Polygon" }
    })
    expect(deck.metadata).toMatchObject({ permit_id: "2026-0042", closure_status: "Active" })
  })

  it("maps an approved speed reduction along its line, with both speeds", () => {
    expect(speed).toMatchObject({
      source_id: "Form568-fx-0002",
      type: "construction",
      sub_type: "speed_reduction",
      direction: "both",
      title: "Work zone speed reduction on US-34 both directions from mile 97 to mile 102",
      start_time: "2026-11-03T13:00:00.000Z",
      estimated_end_time: "2026-11-21T23:00:00.000Z",
      geometry: {
        type: "LineString",
        coordinates: [
          [-105.2, 40.4],
          [-105.1, 40.41],
          [-105.0, 40.42]
        ]
      }
    })
    expect(speed.metadata).toMatchObject({ approval: "Approved", posted_speed_mph: 55, requested_speed_mph: 45 })
  })

  it("does not publish a request not yet approved, and quarantines a zone with no drawing", () => {
    expect(d.records.map((r) => r.source_id)).not.toContain("Form568-fx-0003")
    expect(d.rejected).toEqual([
      expect.objectContaining({
        source_id: "ConstructionWorkZone-fx-0004",
        reason: "no work-zone polygon or speed-reduction line"
      })
    ])
  })
})
