import { describe, expect, it } from "vitest"
import { wzdx } from "../../../pipeline/sources/wzdx.js"
import { decodeOk, ownFixture, sharedNote } from "../../support/adapterSuite.js"

sharedNote()

describe("wzdx mapping", () => {
  it("maps impact, verified dates, lanes and road class", () => {
    const [closed, open] = decodeOk(wzdx, ownFixture("wzdx/two_zones_one_bad.geojson")).records
    expect(closed).toMatchObject({
      source_id: "fx-wz-1",
      type: "closure",
      severity: "major",
      cause: "roadwork",
      direction: "southbound",
      start_time: "2026-11-01T06:00:00.000Z",
      end_time: "2026-11-20T18:00:00.000Z",
      estimated_end_time: null,
      road_class: "interstate",
      source_updated_at: "2026-10-31T10:00:00.123Z",
      lanes_affected: "All lanes closed; lane 1 closed"
    })
    expect(closed.latitude).toBeCloseTo(42.51, 2)
    // unverified dates are estimates; MultiPoint stands for its start point
    expect(open).toMatchObject({
      severity: "minor",
      end_time: null,
      estimated_start_time: "2026-11-02T06:00:00.000Z",
      estimated_end_time: "2026-11-03T18:00:00.000Z",
      longitude: -96.2,
      latitude: 42.4
    })
  })
  it("names the missing field when it quarantines", () => {
    const d = decodeOk(wzdx, ownFixture("wzdx/two_zones_one_bad.geojson"))
    expect(d.rejected[0].reason).toMatch(/road_names/)
    expect(d.rejected[0].source_id).toBe("fx-wz-bad")
  })
})
