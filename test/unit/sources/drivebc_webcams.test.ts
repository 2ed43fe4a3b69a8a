import { describe, expect, it } from "vitest"
import { drivebc_webcams } from "../../../pipeline/sources/drivebc_webcams.js"
import { decodeOk, ownFixture, sharedNote } from "../../support/adapterSuite.js"

sharedNote()

describe("drivebc_webcams mapping", () => {
  it("maps a camera with its links, place and state", () => {
    const [on, off, hidden] = decodeOk(drivebc_webcams, ownFixture("drivebc_webcams/three_cams_one_bad.json")).records
    expect(on).toMatchObject({
      source_id: "101",
      feature_type: "cameras",
      name: "Fixture Pass - E",
      road_name: "Highway 3",
      direction: "eastbound",
      is_active: true,
      geometry: null,
      latitude: 49.1,
      longitude: -117.05,
      properties: {
        url: "https://fixture.invalid/cameras/101.jpg",
        thumbnail_url: "https://fixture.invalid/cameras/tn/101.jpg",
        orientation: "E",
        elevation_m: 1775,
        region: "Kootenay",
        is_stale: false,
        is_delayed: false
      }
    })
    expect(off).toMatchObject({ is_active: false, direction: null, road_name: null, properties: { is_stale: true } })
    expect(off.properties).not.toHaveProperty("orientation")
    expect(hidden.is_active).toBe(false)
  })
  it("does not publish image statistics, so a new picture is not a content change", () => {
    const payload = ownFixture("drivebc_webcams/three_cams_one_bad.json") as { webcams: Array<Record<string, any>> }
    const a = decodeOk(drivebc_webcams, payload).records[0]
    payload.webcams[0].imageStats.lastModified = { time: "2026-11-01 10:15:00", seconds: 5 }
    payload.webcams[0].imageStats.updatePeriodMean = 610
    expect(decodeOk(drivebc_webcams, payload).records[0]).toEqual(a)
  })
})
