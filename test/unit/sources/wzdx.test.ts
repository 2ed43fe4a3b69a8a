import { describe, expect, it } from "vitest"
import { wzdx } from "../../../pipeline/sources/wzdx.js"
import {
  adapterSuite,
  decodeOk,
  ownFixture,
  readJson,
  SHARED_UPSTREAM,
  sharedAvailable,
  sharedNote
} from "../../support/adapterSuite.js"

sharedNote()

const real: Array<[string, number]> = [
  ["wzdx/v4.2/WorkZoneFeed/scenario1_simple_linestring_example.geojson", 5],
  ["wzdx/v4.2/WorkZoneFeed/scenario1_simple_multipoint_example.geojson", 5],
  ["wzdx/v4.2/WorkZoneFeed/scenario2_laneshift_linestring_example.geojson", 1],
  ["wzdx/v4.2/WorkZoneFeed/scenario4_detour_linestring_example.geojson", 4],
  ["wzdx/v4.2/WorkZoneFeed/scenario6_multi_lane_closure_linestring_example.geojson", 1],
  ["wzdx/cdot-production/cdot_wzdx_translated_output_message.json", 1],
  ["wzdx/cdot-production/icone_wzdx_translated_output_message.json", 1],
  ["cwz/cdot/i70_noise_wall_replacement_westbound_2025_08_08.json", 1]
]
for (const [path, n] of real) {
  adapterSuite(wzdx, path, () => readJson(`${SHARED_UPSTREAM}/${path}`), {
    records: n,
    rejected: 0,
    skip: !sharedAvailable
  })
}

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
