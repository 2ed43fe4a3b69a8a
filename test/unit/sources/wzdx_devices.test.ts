import { describe, expect, it } from "vitest"
import { multiToText } from "../../../pipeline/sources/lib/multiText.js"
import { wzdx_devices } from "../../../pipeline/sources/wzdx_devices.js"
import { decodeOk, ownFixture, sharedNote } from "../../support/adapterSuite.js"

sharedNote()
// iCone's production feed: one arrow board and two location markers (not published)

describe("wzdx_devices mapping", () => {
  const [dms, cam, arrow] = decodeOk(wzdx_devices, ownFixture("wzdx_devices/devices.geojson")).records

  it("renders a message sign's MULTI text", () => {
    expect(dms).toMatchObject({
      feature_type: "signs",
      road_name: "I-35",
      direction: "northbound",
      properties: {
        message: "RIGHT LANE\nCLOSED\nUSE\nCAUTION",
        sign_type: "dms",
        posted_at: "2026-11-01T10:00:00.000Z",
        road_event_ids: ["wz-1"]
      }
    })
    expect(multiToText("[pt30o0][fo3][jl2]PATTULLO BR[jl4]<5 MIN[nl][jl2]PORT MANN BR")).toBe(
      "PATTULLO BR<5 MIN\nPORT MANN BR"
    )
  })

  it("swaps a latitude-first position back and marks it; an erroring camera is inactive", () => {
    expect(cam).toMatchObject({
      feature_type: "cameras",
      latitude: 41.61,
      longitude: -93.61,
      is_active: false,
      properties: { coordinates_swapped: true, url: "https://fixture.invalid/cam.jpg", device_status: "error" }
    })
  })

  it("publishes arrow boards with their pattern and skips location markers", () => {
    expect(arrow).toMatchObject({ feature_type: "arrow_boards", properties: { pattern: "left-arrow-flashing" } })
    const all = decodeOk(wzdx_devices, ownFixture("wzdx_devices/devices.geojson"))
    expect(all.records.map((r) => r.source_id)).not.toContain("dev-marker")
    expect(all.rejected.map((r) => r.source_id)).toEqual(["dev-nowhere", "dev-bad"])
  })
})
