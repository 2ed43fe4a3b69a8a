import { describe, expect, it } from "vitest"
import { ocpi } from "../../../pipeline/sources/ocpi.js"
import {
  decodeOk,
  ownFixture,
  readJson,
  SHARED_UPSTREAM,
  sharedAvailable,
  sharedNote
} from "../../support/adapterSuite.js"

sharedNote()

describe("ocpi: availability keys and rollup (SPEC §2.2)", () => {
  const [plaza, busy, broken, unknown, none] = decodeOk(ocpi, ownFixture("ocpi/locations_response.json")).records

  it("counts refill points by state and keeps REMOVED/PLANNED out of the four counts", () => {
    expect(plaza.properties).toMatchObject({
      availability_status: "available",
      available_points: 1,
      occupied_points: 1,
      unavailable_points: 1,
      reported_points: 3,
      excluded_points: 2,
      is_available: true,
      availability_source: "ocpi:US-FXC",
      availability_updated_at: "2026-11-01T11:59:00.000Z",
      network: "FixtureCharge",
      max_kw: 150,
      port_count: 3,
      connector_types: ["IEC_62196_T1_COMBO", "TESLA_S", "IEC_62196_T1"]
    })
    expect(plaza.properties.refill_points as Array<unknown>).toHaveLength(plaza.properties.reported_points as number)
  })

  it("rolls a site up to full, out_of_service or unknown", () => {
    expect(busy.properties).toMatchObject({ availability_status: "full", available_points: 0, is_available: false })
    expect(busy.properties).not.toHaveProperty("excluded_points")
    expect(broken.properties).toMatchObject({ availability_status: "out_of_service", unavailable_points: 1 })
    expect(unknown.properties).toMatchObject({
      availability_status: "unknown",
      reported_points: 2,
      available_points: 0
    })
  })

  it("publishes no availability keys for a site without refill points", () => {
    for (const k of ["availability_status", "available_points", "reported_points", "is_available", "refill_points"]) {
      expect(none.properties).not.toHaveProperty(k)
    }
    expect(none.is_active).toBe(false)
  })

  it.skipIf(!sharedAvailable)("reads the OCPI spec example: a RESERVED EVSE is occupied", () => {
    const [loc] = decodeOk(ocpi, readJson(`${SHARED_UPSTREAM}/ocpi/v2.3.0/location_example.json`)).records
    expect(loc).toMatchObject({ source_id: "BE*BEC*LOC1", name: "Gent Zuid", latitude: 51.047599, longitude: 3.729944 })
    expect(loc.properties).toMatchObject({
      availability_status: "available",
      available_points: 1,
      occupied_points: 1,
      max_kw: 10.6,
      network: "BeCharged"
    })
  })
})
