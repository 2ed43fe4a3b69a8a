type Props = Readonly<Record<string, unknown>>

// kept free of the portal's form helpers so the service's type check and unit tests read it without JSX
const fmt = (n: number) => n.toLocaleString("en-US")

/** Degrees in the unit a station names ("C", "°F", "DegF"); anything else is written as given. */
const degrees = (u: string) => {
  const t = u.replace(/[°\s]|deg(rees)?/gi, "").toUpperCase()
  return t === "C" || t === "CELSIUS" ? " °C" : t === "F" || t === "FAHRENHEIT" ? " °F" : ` ${u}`
}

/** The published unit of a reading, from its companion `<key>_units` property, else "". */
const companion = (key: string, p: Props, asDegrees = false) => {
  const u = p[`${key}_units`]
  if (typeof u !== "string" || u.trim() === "") return ""
  return asDegrees ? degrees(u.trim()) : ` ${u.trim()}`
}

/**
 * Units of the properties the service documents, by name; the reading's own companion unit where
 * the source names it (wind speed and visibility are in the station's unit).
 */
const NAMED: Readonly<Record<string, (p: Props) => string>> = {
  temperature: (p) => companion("temperature", p, true),
  temperature_c: () => " °C",
  surface_temperature_c: () => " °C",
  air_temperature_f: () => " °F",
  forecast_temperature: (p) => companion("forecast_temperature", p, true),
  humidity: () => " %",
  relative_humidity_pct: () => " %",
  availability_pct: () => " %",
  occupancy_pct: () => " %",
  wind_speed: (p) => companion("wind_speed", p),
  visibility: (p) => companion("visibility", p),
  wind_direction: () => "°",
  max_kw: () => " kW",
  min_vertical_clearance_m: () => " m",
  weight_limit_tons: () => " tons",
  distance_km: () => " km"
}

/** Units by the ending of a name, for properties a source adds beyond the documented ones. */
const SUFFIXES: ReadonlyArray<readonly [RegExp, string]> = [
  [/_(c|celsius)$/, " °C"],
  [/_f$/, " °F"],
  [/_kmh$/, " km/h"],
  [/_mph$/, " mph"],
  [/_(pct|percent)$/, " %"],
  [/_mm$/, " mm"],
  [/_cm$/, " cm"],
  [/_hpa$/, " hPa"],
  [/_deg$/, "°"],
  [/_km$/, " km"],
  [/_m$/, " m"],
  [/_t$/, " t"],
  [/_kw$/, " kW"]
]

/** The unit shown after a number under `key`, given the record it came in ("" when none is known). */
export const unitFor = (key: string, p: Props = {}): string =>
  NAMED[key]?.(p) ?? SUFFIXES.find(([re]) => re.test(key))?.[1] ?? ""

/** A property's name in words, its unit dropped (it goes with the value): "air_temp_c" → "Air temp". */
export const labelOf = (k: string) => {
  const bare = SUFFIXES.reduce((name, [re]) => name.replace(re, ""), k).replace(/^is_/, "")
  const words = bare.replace(/_/g, " ")
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** Properties that only say another's unit: shown with that value, never as a row of their own. */
export const isUnitKey = (k: string) => /_units?$/.test(k)

/** A number with its unit, or the value as given when it is not a number. */
export const withUnit = (v: unknown, key: string, p: Props = {}) =>
  typeof v === "number" ? `${fmt(v)}${unitFor(key, p)}` : String(v)

/**
 * The air temperature a person reads: Celsius, with the station's own Fahrenheit after it when it
 * published one; the source's value and unit when no Celsius could be worked out; null when neither.
 */
export const airTemperature = (p: Props): string | null => {
  const c = p.temperature_c
  const own = p.temperature
  const ownUnit = unitFor("temperature", p)
  if (typeof c === "number")
    return typeof own === "number" && ownUnit === " °F" ? `${fmt(c)} °C (${fmt(own)} °F)` : `${fmt(c)} °C`
  if (typeof own === "number") return ownUnit === "" ? `${fmt(own)} (unit not published)` : `${fmt(own)}${ownUnit}`
  return null
}

/** One reading as text ("Ice watch", "12 km/h"), or null when the station published none. */
export const reading = (p: Props, key: string): string | null => {
  const v = p[key]
  if (v === null || v === undefined || v === "") return null
  if (typeof v === "string") return v.charAt(0).toUpperCase() + v.slice(1)
  return withUnit(v, key, p)
}
