import { describe, expect, it } from "vitest"
import { drivebc_rwis, readNumber } from "../../../pipeline/sources/drivebc_rwis.js"
import { decodeOk, ownFixture, sharedNote } from "../../support/adapterSuite.js"

sharedNote()

describe("drivebc_rwis: weather keys are omitted, never zeroed (SPEC §2.2 rule 3)", () => {
  const [summit, fahrenheit, mystery, listOnly] = decodeOk(
    drivebc_rwis,
    ownFixture("drivebc_rwis/stations.json")
  ).records

  it("reads numbers from published strings, keeping a real 0", () => {
    expect(summit.properties).toMatchObject({
      temperature: -3.46,
      temperature_units: "C",
      temperature_c: -3.5,
      surface_temperature_c: -1.2,
      humidity: 87,
      wind_speed: 0,
      wind_speed_units: "km/h",
      wind_direction: 270,
      road_surface: "ice watch",
      observed_at: "2026-11-01T12:05:00.000Z"
    })
    expect(summit.properties).not.toHaveProperty("visibility") // "--" is no number
    expect(summit.description).toBe("Hwy 5 at the summit")
  })

  it("keeps the station's own unit and normalizes to Celsius", () => {
    expect(fahrenheit.properties).toMatchObject({ temperature: 41, temperature_units: "F", temperature_c: 5 })
  })

  it("omits temperature_c when the unit is unknown, and unreadable humidity entirely", () => {
    expect(mystery.properties.temperature).toBe(12.5)
    expect(mystery.properties).not.toHaveProperty("temperature_c")
    expect(mystery.properties).not.toHaveProperty("humidity")
    expect(mystery.is_active).toBe(false)
  })

  it("publishes a listed station without any reading keys", () => {
    for (const k of ["temperature", "temperature_c", "humidity", "wind_speed", "visibility"])
      expect(listOnly.properties).not.toHaveProperty(k)
  })

  it("reads only whole numbers from strings", () => {
    expect([
      readNumber("12.03"),
      readNumber(" -4 "),
      readNumber("0"),
      readNumber(""),
      readNumber("--"),
      readNumber("12.3a"),
      readNumber(null)
    ]).toEqual([12.03, -4, 0, undefined, undefined, undefined, undefined])
  })
})
