import { describe, expect, it } from "vitest"
import { cdot_opentms } from "../../../pipeline/sources/cdot_opentms.js"
import {
  decodeOk,
  ownFixture,
  readPayload,
  SHARED_UPSTREAM,
  sharedAvailable,
  sharedNote
} from "../../support/adapterSuite.js"

sharedNote()

describe("cdot_opentms mapping", () => {
  const d = decodeOk(cdot_opentms, ownFixture("cdot_opentms/events.json"))
  const [crash, works] = d.records

  it("maps an incident: type, severity, road without its direction letter, lanes, span from the message", () => {
    expect(crash).toMatchObject({
      source_id: "OpenTMS-Incident9000001",
      type: "incident",
      sub_type: "crash",
      cause: "accident",
      severity: "major",
      status: "active",
      affected_roads: ["I-70"],
      direction: "westbound",
      lanes_affected: "West: 1 of 2 lanes closed",
      road_class: "interstate",
      title: "Crash on I-70 westbound from Exit 221: Bakerville to Exit 218",
      start_time: "2026-11-01T15:10:00.000Z",
      geometry: {
        type: "MultiPoint",
        coordinates: [
          [-105.701, 39.681],
          [-105.652, 39.702]
        ]
      }
    })
    expect(crash.metadata).toMatchObject({
      injuries: 1,
      fatalities: 0,
      vehicles_involved: 2,
      counties: ["CLEAR CREEK (COUNTY)"]
    })
  })

  it("maps planned work closing every lane as a closure, with truck limits in metadata and its name without the project number", () => {
    expect(works).toMatchObject({
      type: "closure",
      severity: "major",
      title: "SH-91 Resurfacing",
      lanes_affected: "All lanes closed",
      start_time: "2026-11-03T14:00:00.000Z",
      end_time: "2026-11-04T01:00:00.000Z"
    })
    expect(works.metadata).toMatchObject({
      oversize_loads_prohibited: true,
      width_limit_m: 3.05,
      upstream_name: "SH-91 Resurfacing-99001"
    })
  })

  it("quarantines a feature without coordinates", () => {
    expect(d.rejected).toEqual([expect.objectContaining({ source_id: "OpenTMS-Event9000003" })])
  })

  it.skipIf(!sharedAvailable)("archives a cleared chain-law incident as a truck restriction", () => {
    const [chain] = decodeOk(
      cdot_opentms,
      readPayload(`${SHARED_UPSTREAM}/cdot-opentms/incidents/incident.json`)
    ).records
    expect(chain).toMatchObject({
      type: "restriction",
      status: "archived",
      affected_roads: ["CO-9"],
      direction: "southbound"
    })
  })
})
