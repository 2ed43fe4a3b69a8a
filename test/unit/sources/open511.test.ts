import { describe, expect, it } from "vitest"
import { open511 } from "../../../pipeline/sources/open511.js"
import {
  decodeOk,
  ownFixture,
  readJson,
  SHARED_UPSTREAM,
  sharedAvailable,
  sharedNote
} from "../../support/adapterSuite.js"

sharedNote()

describe("open511 mapping", () => {
  it("maps ids, types, severity, status, lanes and schedule", () => {
    const [incident, archived, weather] = decodeOk(open511, ownFixture("open511/three_events_one_bad.json")).records
    expect(incident).toMatchObject({
      source_id: "FX-1",
      type: "incident",
      sub_type: "accident",
      cause: "accident",
      severity: "major",
      status: "active",
      title: "Incident on Highway 97",
      direction: "northbound",
      start_time: "2026-11-01T16:00:00.000Z",
      end_time: null,
      lanes_affected: "Highway 97: 1 closed, 1 open",
      source_created_at: "2026-11-01T16:00:00.000Z"
    })
    expect(archived).toMatchObject({ source_id: "FX-2", status: "archived", title: "Paving finished" })
    // a closed road makes a closure, and a closure is never minor: UNKNOWN severity is worked out from the closure
    // and flagged
    expect(weather).toMatchObject({
      type: "closure",
      severity: "major",
      quality_flags: ["severity_inferred"],
      lanes_affected: "All lanes closed",
      direction: "southbound"
    })
  })
  it.skipIf(!sharedAvailable)("quarantines the DriveBC record without an id", () => {
    const d = decodeOk(
      open511,
      readJson(`${SHARED_UPSTREAM}/open511/drivebc/event_feed_list_of_five_with_validation_error.json`)
    )
    expect(d.rejected[0].reason).toBe("id: is missing")
  })
})
