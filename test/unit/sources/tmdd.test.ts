import { describe, expect, it } from "vitest"
import { tmdd } from "../../../pipeline/sources/tmdd.js"
import {
  decodeOk,
  ownFixture,
  readPayload,
  SHARED_UPSTREAM,
  sharedAvailable,
  sharedNote
} from "../../support/adapterSuite.js"

sharedNote()

describe("tmdd mapping", () => {
  const d = decodeOk(tmdd, ownFixture("tmdd/feu_three_one_bad.xml"))
  const [works, closure] = d.records

  it("maps type, severity, road, direction, lanes and a stretch kept as a line", () => {
    expect(works).toMatchObject({
      source_id: "RW-100",
      type: "construction",
      sub_type: "road construction",
      cause: "roadwork",
      severity: "moderate",
      status: "active",
      affected_roads: ["I-25"],
      direction: "northbound",
      road_class: "interstate",
      lanes_affected: "Through lanes: 1 of 3 lanes affected",
      description: "Bridge deck repair, right lane closed.",
      geometry: {
        type: "LineString",
        coordinates: [
          [-104.9, 39.5],
          [-104.91, 39.55]
        ]
      },
      latitude: 39.5,
      longitude: -104.9
    })
    expect(closure).toMatchObject({
      source_id: "CL-7",
      type: "closure",
      severity: "major",
      direction: "both",
      geometry: { type: "Point", coordinates: [-105.27, 40.01] }
    })
  })

  it("reads times with the offset the centre states (date + HHMM[SS[ff]] + ±HHMM)", () => {
    expect(works.start_time).toBe("2026-11-01T13:00:00.000Z")
    expect(works.estimated_end_time).toBe("2026-11-16T00:00:00.000Z")
    expect(works.source_updated_at).toBe("2026-11-01T14:15:00.000Z")
    expect(closure.start_time).toBe("2026-11-01T15:30:00.000Z")
  })

  it("titles an event whose name is an id from its road and span, keeping the name in metadata", () => {
    expect(works.title).toBe("Road construction on I-25 northbound from Exit 180 to Exit 184")
    expect(works.metadata).toMatchObject({
      upstream_name: "FXDOT-Event0000100",
      organization_id: "FX-DOT",
      event_update: "3"
    })
    expect(closure.title).toBe("Road closed on US-36 both directions")
  })

  it("quarantines an FEU without a position, with its id and a reason", () => {
    expect(d.rejected).toHaveLength(1)
    expect(d.rejected[0]).toMatchObject({
      source_id: "NOPOS-1",
      reason: "no usable geo-location on the primary location"
    })
  })

  it("refuses malformed XML and a document that is not a TMDD event message", () => {
    expect(tmdd.decode("<fEUMsg><FEU>", { source: "x", jurisdiction: "XX", polledAt: new Date(0) })).toMatchObject({
      _tag: "Left"
    })
    expect(
      tmdd.decode("<rss><channel/></rss>", { source: "x", jurisdiction: "XX", polledAt: new Date(0) })
    ).toMatchObject({ _tag: "Left" })
    // an empty message is a feed with no events, not an error
    expect(decodeOk(tmdd, "<Envelope><Body><fEUMsg/></Body></Envelope>").records).toEqual([])
  })

  it.skipIf(!sharedAvailable)(
    "reads the real FEU messages as the Open511 converter did (ids, places, severities)",
    () => {
      const [first, second] = decodeOk(tmdd, readPayload(`${SHARED_UPSTREAM}/tmdd/tmdd-input-1.xml`)).records
      expect(first).toMatchObject({
        source_id: "1681",
        type: "special_event",
        latitude: 33.07385,
        longitude: -117.070234,
        direction: "southbound",
        title: "Special event on I-1 southbound at INTERSECTION HWY"
      })
      expect(second).toMatchObject({
        source_id: "1690",
        type: "incident",
        estimated_start_time: "2012-04-16T15:56:05.000Z",
        estimated_end_time: "2012-04-16T16:41:05.000Z"
      })
      const [one] = decodeOk(tmdd, readPayload(`${SHARED_UPSTREAM}/tmdd/tmdd-input-2.xml`)).records
      expect(one).toMatchObject({
        source_id: "91",
        sub_type: "accident",
        cause: "accident",
        severity: "major",
        title: "Test Incident 1234",
        lanes_affected: "Lanes 4, 5 of 5 affected"
      })
    }
  )
})
