import { describe, expect, it } from "vitest"
import { airTemperature, isUnitKey, labelOf, reading, unitFor } from "../../../portal/src/map/readingText.js"

/** A DriveBC station's properties as the adapter writes them (units as the station published them). */
const station = {
  temperature: 41,
  temperature_units: "F",
  temperature_c: 5,
  surface_temperature_c: -1.2,
  humidity: 87,
  wind_speed: 12,
  wind_speed_units: "km/h",
  wind_direction: 270,
  visibility: 0.4,
  visibility_units: "km",
  road_surface: "ice watch"
}

describe("a weather station's readings in words", () => {
  it("writes every documented reading with the unit it was published in", () => {
    expect(airTemperature(station)).toBe("5 °C (41 °F)")
    expect(reading(station, "surface_temperature_c")).toBe("-1.2 °C")
    expect(reading(station, "humidity")).toBe("87 %")
    expect(reading(station, "wind_speed")).toBe("12 km/h")
    expect(reading(station, "wind_direction")).toBe("270°")
    expect(reading(station, "visibility")).toBe("0.4 km")
    expect(reading(station, "road_surface")).toBe("Ice watch")
  })

  it("follows the station's unit, not a guess: the same number in mph and miles", () => {
    const us = { ...station, wind_speed_units: "mph", visibility_units: "mi" }
    expect(reading(us, "wind_speed")).toBe("12 mph")
    expect(reading(us, "visibility")).toBe("0.4 mi")
  })

  it("says so when a station published a temperature without a unit, and shows Celsius alone when it was Celsius", () => {
    expect(airTemperature({ temperature: 12.5 })).toBe("12.5 (unit not published)")
    expect(airTemperature({ temperature: 3, temperature_units: "C", temperature_c: 3 })).toBe("3 °C")
    expect(airTemperature({ temperature: 50, temperature_units: "°F" })).toBe("50 °F")
    expect(airTemperature({})).toBeNull()
    expect(reading({ wind_speed: null }, "wind_speed")).toBeNull()
  })

  it("knows the documented properties of other feature types by name", () => {
    expect(unitFor("min_vertical_clearance_m")).toBe(" m")
    expect(unitFor("weight_limit_tons")).toBe(" tons")
    expect(unitFor("max_kw")).toBe(" kW")
    expect(unitFor("occupancy_pct")).toBe(" %")
    expect(unitFor("year_built")).toBe("")
    expect(unitFor("port_count")).toBe("")
  })

  it("labels a property without its unit and keeps unit keys out of the rows", () => {
    expect(labelOf("min_vertical_clearance_m")).toBe("Min vertical clearance")
    expect(labelOf("is_stale")).toBe("Stale")
    expect(isUnitKey("wind_speed_units")).toBe(true)
    expect(isUnitKey("wind_speed")).toBe(false)
  })
})
