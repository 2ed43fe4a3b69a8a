import { describe, expect, it } from "vitest"
import { drivebc_rest_areas } from "../../../pipeline/sources/drivebc_rest_areas.js"
import { indiana_rest_areas } from "../../../pipeline/sources/indiana_rest_areas.js"
import { decodeOk, ownFixture, sharedNote } from "../../support/adapterSuite.js"

sharedNote()

describe("drivebc_rest_areas", () => {
  const [creek, bare] = decodeOk(drivebc_rest_areas, ownFixture("drivebc_rest_areas/two_and_bad.json")).records
  it("reads latitude-first positions and the agency's facilities as stated", () => {
    expect(creek).toMatchObject({
      name: "FIXTURE CREEK",
      latitude: 49.38,
      longitude: -121.44,
      road_name: "Highway 5",
      direction: "northbound",
      properties: {
        accommodates_trucks: true,
        open_year_round: false,
        toilet_count: 4,
        table_count: 0,
        ev_dcfc_25kw_count: 0,
        ev_dcfc_50kw_count: 2
      }
    })
    expect(creek.properties.amenities).toEqual(["toilets", "accessible_toilets", "ev_charging"])
  })
  it("omits what the agency did not state, never zeroing it", () => {
    for (const k of ["accommodates_trucks", "toilet_count", "ev_dcfc_50kw_count", "open_year_round"])
      expect(bare.properties).not.toHaveProperty(k)
  })
})

describe("indiana_rest_areas: availability as the sign shows it", () => {
  const [counted, full, low, dark, none] = decodeOk(
    indiana_rest_areas,
    ownFixture("indiana_rest_areas/sites.geojson")
  ).records
  it("publishes a shown number, 0 included, with capacity and observation time", () => {
    expect(counted).toMatchObject({
      direction: "eastbound",
      road_name: "I-70",
      properties: {
        capacity: 40,
        available_spots: 12,
        observed_at: "2026-11-01T12:00:00.000Z",
        open: true,
        milepost: 107
      }
    })
    expect(full.properties).toMatchObject({ available_spots: 0, capacity: 30 })
  })
  it("keeps LOW as text and publishes nothing for a dark sign or a negative count", () => {
    expect(low.properties).toMatchObject({ availability_text: "LOW" })
    expect(low.properties).not.toHaveProperty("available_spots")
    expect(dark.properties).not.toHaveProperty("available_spots")
    expect(dark.properties).not.toHaveProperty("availability_text")
    expect(dark.is_active).toBe(false)
    expect(none.properties).not.toHaveProperty("capacity")
  })
})
