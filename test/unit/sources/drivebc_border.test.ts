import { describe, expect, it } from "vitest"
import { drivebc_border } from "../../../pipeline/sources/drivebc_border.js"
import { decodeOk, ownFixture, sharedNote } from "../../support/adapterSuite.js"

sharedNote()

describe("drivebc_border", () => {
  it("publishes lane delays as measured: 0 is 0, unmeasured is absent", () => {
    const [arch, quiet] = decodeOk(drivebc_border, ownFixture("drivebc_border/crossings.json")).records
    expect(arch).toMatchObject({
      feature_type: "border_crossings",
      name: "Fixture Arch",
      latitude: 49,
      longitude: -122.75,
      properties: { schedule_url: "https://fixture.invalid/405" }
    })
    expect(arch.properties.lanes).toEqual([
      { lane_type: "cars", direction: "southbound", delay_minutes: 25, observed_at: "2026-11-01T12:00:00.000Z" },
      { lane_type: "trucks", direction: "southbound", delay_minutes: 0, observed_at: "2026-11-01T12:00:00.000Z" },
      { lane_type: "nexus", direction: "northbound" }
    ])
    expect(quiet.properties.lanes).toEqual([])
  })
})
