import { Schema } from "effect"
import { type FeatureObservation, NO_WINDOW } from "../../shared/domain/Feature.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { validLatLng } from "../../shared/geo/representativePoint.js"
import { DRIVEBC_CREDIT } from "./lib/credits.js"
import { Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"

/**
 * DriveBC road weather (RWIS) stations: station-data documents `{WeatherStation, Datasets}`
 * (one or an array), or a bare station list (stations without readings). Readings follow
 * SPEC §2.2 rule 3: a key is present only when a number could be read from the published
 * string; `temperature` stays in the station's unit and `temperature_c` is omitted when that
 * unit is unknown; nothing is ever zeroed.
 */

const Station = Schema.Struct({
  WeatherStationId: Lenient.id,
  WeatherStationName: Lenient.optString,
  WeatherStationNumber: Lenient.optString,
  LocationDescription: Lenient.optString,
  Latitude: Schema.Number,
  Longitude: Schema.Number,
  Elevation: Lenient.optNumber,
  Status: Lenient.optString,
  WeatherStationTypeName: Lenient.optString
})

const Dataset = Schema.Struct({
  DataSetName: Schema.String,
  Value: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  Unit: Lenient.optString,
  CollectionUtc: Lenient.optString
})

const Doc = Schema.Struct({ WeatherStation: Station, Datasets: Schema.optional(Schema.NullOr(Schema.Array(Dataset))) })
type Doc = typeof Doc.Type

const Envelope = Schema.Union(
  Schema.Array(Schema.Unknown),
  Schema.Struct({ WeatherStation: Schema.Unknown }, Schema.Record({ key: Schema.String, value: Schema.Unknown }))
)

/** Station list entries are stations themselves; wrap them so every item is a document. */
const asDoc = (raw: unknown): unknown =>
  typeof raw === "object" && raw !== null && !("WeatherStation" in raw) && "WeatherStationId" in raw
    ? { WeatherStation: raw }
    : raw

/** A number read from a published string, or undefined ("", "--", "N/A", "12.3a" are not numbers). */
export const readNumber = (v: string | number | null | undefined): number | undefined => {
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined
  if (typeof v !== "string") return undefined
  const t = v.trim()
  return /^[+-]?(\d+(\.\d+)?|\.\d+)$/.test(t) ? Number(t) : undefined
}

const unitOf = (u: string | null | undefined): "C" | "F" | undefined => {
  const t = (u ?? "").replace("°", "").trim().toUpperCase()
  return t === "C" || t === "DEGC" || t === "CELSIUS"
    ? "C"
    : t === "F" || t === "DEGF" || t === "FAHRENHEIT"
      ? "F"
      : undefined
}

const round1 = (n: number) => Math.round(n * 10) / 10

const readings = (datasets: ReadonlyArray<typeof Dataset.Type>) => {
  const first = (...names: Array<string>) => datasets.find((d) => names.includes(d.DataSetName.toLowerCase()))
  const out: Record<string, unknown> = {}
  const air = first("air_temp", "airtemp", "air_temperature")
  const airValue = readNumber(air?.Value)
  if (air && airValue !== undefined) {
    out.temperature = airValue
    const unit = unitOf(air.Unit)
    if (unit) {
      out.temperature_units = unit
      out.temperature_c = round1(unit === "C" ? airValue : ((airValue - 32) * 5) / 9)
    }
  }
  const surface = first("sfc_temp", "surface_temp")
  const surfaceValue = readNumber(surface?.Value)
  if (surface && surfaceValue !== undefined && unitOf(surface.Unit)) {
    out.surface_temperature_c = round1(unitOf(surface.Unit) === "C" ? surfaceValue : ((surfaceValue - 32) * 5) / 9)
  }
  const num = (key: string, unitKey: string | null, ...names: Array<string>) => {
    const d = first(...names)
    const n = readNumber(d?.Value)
    if (d && n !== undefined) {
      out[key] = n
      if (unitKey && d.Unit) out[unitKey] = d.Unit
    }
  }
  num("humidity", null, "rel_hum", "relative_humidity", "humidity")
  num("wind_speed", "wind_speed_units", "wnd_spd_avg", "wind_speed", "wnd_spd")
  num("visibility", "visibility_units", "visibility", "vis")
  const text = (key: string, ...names: Array<string>) => {
    const v = first(...names)?.Value
    if (typeof v === "string" && v.trim() !== "" && readNumber(v) === undefined) out[key] = v.trim().toLowerCase()
  }
  text("road_surface", "sfc_status", "surface_status", "road_surface")
  text("precipitation", "precip_type", "precipitation")
  const dir = first("wnd_dir_avg", "wind_direction", "wnd_dir")?.Value
  if (dir !== undefined && dir !== null && String(dir).trim() !== "")
    out.wind_direction = readNumber(dir) ?? String(dir).trim()
  const stamps = datasets
    .map((d) => toIso(d.CollectionUtc))
    .filter((s): s is string => s !== null)
    .sort()
  if (stamps.length > 0) out.observed_at = stamps[stamps.length - 1]
  return out
}

const toFeature =
  (jurisdiction: string) =>
  (doc: Doc): FeatureObservation | string => {
    const s = doc.WeatherStation
    if (!validLatLng(s.Latitude, s.Longitude)) return `invalid coordinates ${s.Latitude},${s.Longitude}`
    return {
      source_id: String(s.WeatherStationId),
      jurisdiction,
      feature_type: "weather_stations",
      name: s.WeatherStationName?.trim() || `Station ${s.WeatherStationNumber ?? s.WeatherStationId}`,
      description: (s.LocationDescription ?? "").split("\n")[0].trim(),
      latitude: s.Latitude,
      longitude: s.Longitude,
      geometry: null,
      road_name: null,
      direction: null,
      is_active: (s.Status ?? "Active").toLowerCase() === "active",
      ...NO_WINDOW,
      properties: {
        ...(s.WeatherStationNumber ? { station_number: s.WeatherStationNumber } : {}),
        ...(s.Elevation !== undefined && s.Elevation !== null ? { elevation_m: s.Elevation } : {}),
        ...(s.WeatherStationTypeName ? { station_type: s.WeatherStationTypeName } : {}),
        ...readings(doc.Datasets ?? [])
      },
      has_details: false
    }
  }

export const drivebc_rwis: FeatureAdapter = defineAdapter({
  id: "drivebc_rwis",
  revision: 1,
  kind: "features",
  formats: ["drivebc-weather-station-data", "drivebc-weather-station-list"],
  yields: ["weather_stations"],
  attribution: DRIVEBC_CREDIT,
  records: {
    envelope: Envelope,
    record: Doc,
    map: toFeature,
    items: (e) => (Array.isArray(e) ? e : [e]).map(asDoc),
    idOf: (raw) => {
      const id = (asDoc(raw) as { WeatherStation?: { WeatherStationId?: unknown } } | null)?.WeatherStation
        ?.WeatherStationId
      return typeof id === "string" || typeof id === "number" ? String(id) : undefined
    }
  }
})
