import { describe, expect, it } from "vitest"
import { wzdx_restrictions } from "../../../pipeline/sources/wzdx_restrictions.js"
import {
  decodeOk,
  ownFixture,
  readJson,
  SHARED_UPSTREAM,
  sharedAvailable,
  sharedNote
} from "../../support/adapterSuite.js"

sharedNote()

describe("wzdx_restrictions mapping", () => {
  const [bridge, weight, trucks] = decodeOk(wzdx_restrictions, ownFixture("wzdx_restrictions/mixed.geojson")).records

  it("makes a bridge clearance from the lowest height, in metres, along its line", () => {
    expect(bridge).toMatchObject({
      feature_type: "bridge_clearances",
      road_name: "US-6",
      direction: "eastbound",
      properties: { min_vertical_clearance_m: 3.81 }
    })
    expect(bridge.geometry?.type).toBe("LineString")
  })

  it("makes a weight restriction in short tons, keeping the other restrictions", () => {
    expect(weight).toMatchObject({ feature_type: "weight_restrictions", properties: { weight_limit_tons: 40 } })
    expect((weight.properties.restrictions as Array<{ type: string }>).map((r) => r.type)).toEqual([
      "reduced-weight",
      "no-trucks"
    ])
  })

  it("makes a truck restriction with a readable text", () => {
    expect(trucks).toMatchObject({
      feature_type: "truck_restrictions",
      geometry: null,
      direction: null,
      properties: { restriction: "no-trucks; reduced-width 2.44 m" }
    })
  })

  it.skipIf(!sharedAvailable)("reads the USDOT example: Bridge1's lowest lane clearance is 10.5 ft", () => {
    const [b1] = decodeOk(
      wzdx_restrictions,
      readJson(`${SHARED_UPSTREAM}/wzdx/v4.0/RoadRestrictionFeed/bridge_height_restriction_linestring_example.geojson`)
    ).records
    expect(b1).toMatchObject({
      source_id: "Bridge1",
      feature_type: "bridge_clearances",
      road_name: "Hutchinson River Parkway",
      properties: { min_vertical_clearance_m: 3.2 }
    })
  })
})
