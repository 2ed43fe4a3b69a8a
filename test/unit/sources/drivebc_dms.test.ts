import { describe, expect, it } from "vitest"
import { drivebc_dms } from "../../../pipeline/sources/drivebc_dms.js"
import { decodeOk, ownFixture, sharedNote } from "../../support/adapterSuite.js"

sharedNote()

describe("drivebc_dms mapping", () => {
  const [multi, pages, failed] = decodeOk(drivebc_dms, ownFixture("drivebc_dms/signs.json")).records
  it("renders MULTI text when there are no pre-rendered pages", () => {
    expect(multi).toMatchObject({
      feature_type: "signs",
      road_name: "Highway 1",
      direction: "eastbound",
      is_active: true,
      properties: { message: "BRIDGE\n5 MIN", sign_type: "dms", posted_at: "2026-11-01T13:02:16.000Z" }
    })
  })
  it("prefers the agency's pages and keeps the expiry as the estimated end", () => {
    expect(pages).toMatchObject({
      estimated_end_time: "2026-11-01T20:00:00.000Z",
      properties: {
        message: "CRASH AHEAD\nRIGHT LANE BLOCKED\nUSE CAUTION",
        pages: ["CRASH AHEAD\nRIGHT LANE BLOCKED", "USE CAUTION"]
      }
    })
  })
  it("treats a sign that is not OK as inactive", () => {
    expect(failed).toMatchObject({ is_active: false, properties: { device_status: "communication failure" } })
  })
})
