import { describe, expect, it } from "vitest"
import { icone } from "../../../pipeline/sources/icone.js"
import { decodeOk, ownFixture, sharedNote } from "../../support/adapterSuite.js"

sharedNote()

describe("icone mapping", () => {
  const d = decodeOk(icone, ownFixture("icone/incidents.xml"))
  const [lane, closed] = d.records

  it("maps a lane closure along its whole polyline, the road and direction from the street", () => {
    expect(lane).toMatchObject({
      source_id: "FX-IC-1",
      type: "construction",
      sub_type: "hazard_on_road_lane_closed",
      cause: "roadwork",
      severity: "moderate",
      affected_roads: ["I-25"],
      direction: "southbound",
      lanes_affected: "Lane closed",
      road_class: "interstate",
      start_time: "2026-11-01T14:00:00.000Z",
      end_time: "2026-11-01T22:00:00.000Z",
      source_updated_at: "2026-11-01T15:58:00.000Z",
      geometry: {
        type: "LineString",
        coordinates: [
          [-104.87, 39.5],
          [-104.871, 39.49],
          [-104.872, 39.48]
        ]
      },
      title: "Lane Closed, MERGE RIGHT on I-25 southbound",
      description: "22-0417: Lane Closed, MERGE RIGHT"
    })
    expect(lane.metadata.devices).toEqual([
      { kind: "display", type: "AB", id: "AB-77", states: ["Right Arrow"] },
      { kind: "sensor", type: "iCone", id: "SB 1 - MP 180.2" }
    ])
  })

  it("maps a road closure in both directions at one point", () => {
    expect(closed).toMatchObject({
      type: "closure",
      severity: "major",
      direction: "both",
      lanes_affected: "All lanes closed",
      geometry: { type: "Point", coordinates: [-105.4, 39.74] },
      title: "Road closed for blasting on US-6 both directions"
    })
  })

  it("quarantines an incident whose polyline cannot be read, and refuses a document that is not iCone's", () => {
    expect(d.rejected).toEqual([
      expect.objectContaining({ source_id: "FX-IC-3", reason: "no readable location polyline" })
    ])
    expect(icone.decode("<FEU/>", { source: "x", jurisdiction: "XX", polledAt: new Date(0) })).toMatchObject({
      _tag: "Left"
    })
    expect(decodeOk(icone, `<incidents timestamp="2026-11-01T16:00:00Z"/>`).records).toEqual([])
  })
})
