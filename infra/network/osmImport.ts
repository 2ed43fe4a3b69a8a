import {
  FREE_ROAD,
  type LimitField,
  type RoadClass,
  type RoadLine,
  type RoadProps
} from "../../shared/routing/network/RoadLine.js"

/** the OSM tag each limit is read from */
const OSM_LIMIT_TAGS: Partial<Record<LimitField, string>> = {
  max_height_m: "maxheight",
  max_weight_t: "maxweight",
  max_length_m: "maxlength",
  hazmat_forbidden: "hazmat",
  truck_forbidden: "hgv"
}
const limitSet = (p: Partial<RoadProps>, field: LimitField) => {
  const v = p[field]
  return v !== null && v !== undefined && v !== false
}

/**
 * OSM-style GeoJSON (an osmium export of ways: LineString or MultiLineString features whose
 * properties are OSM tags) → road lines. Ways that are not drivable roads are left out.
 */
type Tags = Record<string, unknown>

const CLASS_OF: Record<string, RoadClass> = {
  motorway: "motorway",
  motorway_link: "motorway",
  trunk: "trunk",
  trunk_link: "trunk",
  primary: "primary",
  primary_link: "primary",
  secondary: "secondary",
  secondary_link: "secondary",
  tertiary: "secondary",
  tertiary_link: "secondary",
  unclassified: "secondary",
  residential: "secondary",
  service: "secondary",
  living_street: "secondary",
  road: "secondary"
}
/** km/h a truck plans on each OSM highway kind when no maxspeed is tagged (a lower maxspeed wins) */
const SPEED_OF: Record<string, number> = {
  motorway: 95,
  motorway_link: 50,
  trunk: 80,
  trunk_link: 50,
  primary: 70,
  primary_link: 40,
  secondary: 60,
  secondary_link: 40,
  tertiary: 50,
  tertiary_link: 40,
  unclassified: 40,
  residential: 30,
  service: 20,
  living_street: 10,
  road: 40
}
const FERRY_KPH = 15

const text = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : undefined)
const yes = (v: unknown) => ["yes", "true", "1"].includes(text(v)?.toLowerCase() ?? "")

/** "65 mph", "100", "90 km/h" → km/h; "none", "signals", "walk" → undefined */
export const parseSpeed = (v: unknown): number | undefined => {
  const t = text(v)?.toLowerCase()
  const m = t ? /^(\d+(?:\.\d+)?)\s*(mph|km\/h|kmh|kph)?$/.exec(t) : null
  if (!m) return undefined
  return m[2] === "mph" ? Number(m[1]) * 1.609344 : Number(m[1])
}

/** "4.2", "4.2 m", "13'6\"", "13 ft 6 in", "14'" → metres */
export const parseHeight = (v: unknown): number | undefined => {
  const t = text(v)?.toLowerCase()
  if (!t) return undefined
  const metric = /^(\d+(?:\.\d+)?)\s*m?$/.exec(t)
  if (metric) return Number(metric[1])
  const imperial = /^(\d+)\s*(?:'|ft)\s*(?:(\d+(?:\.\d+)?)\s*(?:"|in)?)?$/.exec(t)
  if (imperial) return Math.round((Number(imperial[1]) * 0.3048 + Number(imperial[2] ?? 0) * 0.0254) * 100) / 100
  return undefined
}

/** "40", "40 t", "80000 lbs", "20 st" (short tons) → metric tonnes */
export const parseWeight = (v: unknown): number | undefined => {
  const t = text(v)?.toLowerCase()
  const m = t ? /^(\d+(?:\.\d+)?)\s*(t|lbs?|st|kg)?$/.exec(t) : null
  if (!m) return undefined
  const n = Number(m[1])
  switch (m[2]) {
    case "lb":
    case "lbs":
      return Math.round(n * 0.000453592 * 100) / 100
    case "st":
      return Math.round(n * 0.907185 * 100) / 100
    case "kg":
      return n / 1000
    default:
      return n
  }
}

export const osmLines = (collection: {
  features: ReadonlyArray<{ properties: Tags | null; geometry: { type: string; coordinates: unknown } | null }>
}): { lines: Array<RoadLine>; skipped: number } => {
  const lines: Array<RoadLine> = []
  let skipped = 0
  for (const f of collection.features) {
    const tags = f.properties ?? {}
    const highway = text(tags.highway)
    const ferry = text(tags.route) === "ferry"
    const cls: RoadClass | undefined = ferry ? "ferry" : highway ? CLASS_OF[highway] : undefined
    const parts =
      f.geometry?.type === "LineString"
        ? [f.geometry.coordinates]
        : f.geometry?.type === "MultiLineString"
          ? (f.geometry.coordinates as Array<unknown>)
          : []
    if (cls === undefined || parts.length === 0) {
      skipped++
      continue
    }
    const base = ferry ? FERRY_KPH : (SPEED_OF[highway!] ?? 40)
    const posted = parseSpeed(tags.maxspeed)
    const oneway = text(tags.oneway)
    const reversed = oneway === "-1"
    const toll = yes(tags.toll) ? (text(tags["toll:name"]) ?? text(tags.operator) ?? "osm_toll") : null
    const props = {
      ...FREE_ROAD,
      ref: text(tags.ref)?.replace(/;\s*/g, ";") ?? null,
      name: text(tags.name) ?? null,
      class: cls,
      speed_kph: posted !== undefined ? Math.min(base, posted) : base,
      oneway:
        reversed || yes(oneway) || (oneway === undefined && (highway === "motorway" || highway === "motorway_link")),
      toll,
      tunnel: ["yes", "building_passage", "culvert"].includes(text(tags.tunnel) ?? ""),
      ferry,
      max_height_m: parseHeight(tags["maxheight"]) ?? null,
      max_weight_t: parseWeight(tags["maxweight"]) ?? null,
      max_length_m: parseHeight(tags["maxlength"]) ?? null,
      hazmat_forbidden: text(tags.hazmat) === "no",
      truck_forbidden: text(tags.hgv) === "no"
    }
    // every limit keeps the way it was read from, so a route can say what it kept the truck from
    const way = `OSM way ${text(tags["@id"]) ?? text((f as { id?: unknown }).id) ?? "(no id)"}`
    const sources = Object.fromEntries(
      Object.entries(OSM_LIMIT_TAGS).flatMap(([field, tag]) =>
        limitSet(props, field as LimitField) ? [[field, `${way} ${tag}=${text(tags[tag])}`]] : []
      )
    )
    if (Object.keys(sources).length > 0) Object.assign(props, { restriction_sources: sources })
    for (const part of parts as Array<Array<[number, number]>>) {
      if (
        !Array.isArray(part) ||
        part.length < 2 ||
        !part.every((p) => Number.isFinite(p?.[0]) && Number.isFinite(p?.[1]))
      ) {
        skipped++
        continue
      }
      const coordinates = part.map((p) => [p[0], p[1]] as const)
      lines.push({ props, coordinates: reversed ? coordinates.reverse() : coordinates })
    }
  }
  return { lines, skipped }
}
