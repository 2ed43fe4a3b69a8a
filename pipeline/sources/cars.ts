import { Schema } from "effect"
import { causeFromText } from "../../shared/domain/Cause.js"
import type { EventObservation, EventType, Severity } from "../../shared/domain/Event.js"
import { buildTitle, milepost } from "../../shared/domain/eventTitle.js"
import { directionOf, roadClassOf } from "../../shared/domain/Road.js"
import { representativePoint } from "../../shared/geo/representativePoint.js"
import { defineAdapter, type EventAdapter, field, Lenient } from "./Adapter.js"

/**
 * Castle Rock CARS event messages (JSON, TMDD-derived), as DriveBC consumes them: a list of
 * events, each with a headline phrase, detail elements (times, phrase descriptions, link
 * locations) and the agency's own GeoJSON geometry. A commercial chain-up requirement is a
 * restriction for trucks and says so in `metadata.chain_up`.
 */

const CarsTime = Schema.Struct({ time: Schema.Number, timeZoneId: Lenient.optString, utcOffset: Lenient.optNumber })
type CarsTime = typeof CarsTime.Type
const GeoLocation = Schema.Struct({ latitude: Schema.Number, longitude: Schema.Number })
const Place = Schema.Struct({
  "geo-location": Schema.optional(GeoLocation),
  "linear-reference": Lenient.optNumber,
  "cross-street-name": Schema.optional(Schema.NullOr(Schema.Array(Schema.String)))
})
const Location = Schema.Struct({
  "route-designator": Lenient.optString,
  "link-direction": Lenient.optString,
  "link-alignment": Lenient.optString,
  "primary-location": Schema.optional(Place),
  "secondary-location": Schema.optional(Place)
})
const Detail = Schema.Struct({
  "start-time": Schema.optional(CarsTime),
  "end-time": Schema.optional(CarsTime),
  "update-time": Schema.optional(CarsTime),
  "duration-was-specified": Lenient.optBoolean,
  // feeds differ: `kind` as {category, code}, as a plain code string, or absent (a bare phrase)
  descriptions: Schema.optional(Schema.NullOr(Schema.Array(Schema.Unknown))),
  locations: Schema.optional(Schema.Array(Location))
})
const Event = Schema.Struct({
  "event-id": Schema.NonEmptyTrimmedString,
  headline: Schema.Struct({ category: Schema.String, code: Lenient.optString }),
  status: Lenient.optString,
  priority: Lenient.optNumber,
  "message-number": Lenient.optNumber,
  "update-number": Lenient.optNumber,
  "update-time": Schema.optional(CarsTime),
  "is-draft": Lenient.optBoolean,
  details: Schema.Array(Detail),
  geometry: Schema.optional(
    Schema.NullOr(Schema.Struct({ type: Schema.String, coordinates: Schema.Array(Schema.Unknown) }))
  ),
  "open511-event-details": Schema.optional(
    Schema.Struct({
      event_type_description: Lenient.optString,
      event_subtype: Lenient.optString,
      event_road_direction: Lenient.optString,
      event_road_from: Lenient.optString,
      event_road_to: Lenient.optString,
      event_area_area_id: Lenient.optString,
      start_point_linear_reference: Lenient.optNumber,
      end_point_linear_reference: Lenient.optNumber
    })
  ),
  "communication-plans": Schema.optional(
    Schema.Array(Schema.Struct({ "plan-type": Schema.String, description: Lenient.optString }))
  ),
  "communication-plan-template": Schema.optional(Schema.Struct({ "nearby-city-reference": Lenient.optString })),
  representation: Schema.optional(
    Schema.Struct({ priority: Schema.optional(Schema.Struct({ name: Lenient.optString })) })
  )
})
type Event = typeof Event.Type

/** Headline categories in any case, with or without separators: `roadwork`, `ROAD_WORK`, `Winter Driving` … */
const TYPES: Record<string, EventType> = {
  CONSTRUCTION: "construction",
  ROADWORK: "construction",
  MAINTENANCE: "construction",
  INCIDENT: "incident",
  INCIDENTS: "incident",
  ACCIDENT: "incident",
  CRASH: "incident",
  SPECIALEVENT: "special_event",
  SPECIALEVENTS: "special_event",
  WEATHERCONDITION: "weather",
  WEATHER: "weather",
  WINTERDRIVING: "weather",
  ROADCONDITION: "advisory",
  ROADCONDITIONS: "advisory",
  ADVISORY: "advisory",
  CHAINUP: "restriction",
  CHAINLAW: "restriction",
  RESTRICTION: "restriction",
  RESTRICTIONS: "restriction",
  CLOSURE: "closure",
  CLOSURES: "closure",
  ROADCLOSURE: "closure"
}
const categoryKey = (c: string) => c.replace(/[\s_-]+/g, "").toUpperCase()

/**
 * One detail phrase, however the feed wrote it: `{kind: {category, code}}`, `{kind: "code"}`, `{category, code}` or a
 * bare string.
 */
interface Phrase {
  readonly category: string | null
  readonly code: string
}
const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : null)
const phraseOf = (d: unknown): Phrase | null => {
  if (typeof d === "string") return str(d) ? { category: null, code: d.trim() } : null
  if (typeof d !== "object" || d === null) return null
  const o = d as Record<string, unknown>
  const kind = o.kind
  if (typeof kind === "object" && kind !== null) {
    const k = kind as Record<string, unknown>
    const code = str(k.code) ?? str(k.description)
    return code ? { category: str(k.category), code } : null
  }
  const code = str(kind) ?? str(o.code) ?? str(o.description) ?? str(o.text) ?? str(o.phrase)
  return code ? { category: str(o.category), code } : null
}
const SEVERITIES: Record<string, Severity> = { MINOR: "minor", MODERATE: "moderate", MAJOR: "major" }
const ENDED = new Set(["CLEARED", "ARCHIVED", "DELETED", "ENDED", "INACTIVE"])
/** CARS `traffic_pattern` phrases that close the road to all traffic */
const CLOSED = /^(closed|road closed|closed in both directions|bridge closed)$/i

/** a linear reference in km; CARS writes -1 for none */
const km = (v: number | null | undefined) => (v === null || v === undefined || v < 0 ? null : v)
const iso = (t: CarsTime | undefined) =>
  t === undefined || !Number.isFinite(t.time) || t.time <= 0 ? null : new Date(t.time).toISOString()
const words = (s: string | null | undefined) =>
  s
    ? s
        .replace(/<[^>]*>/g, " ")
        .replace(/\s+/g, " ")
        .trim()
    : ""
/** "at Mamquam Rd" → "Mamquam Rd" (the title adds its own "at"/"from") */
const placeName = (s: string | null | undefined) => (s ? s.replace(/^(at|near|from|to)\s+/i, "").trim() || null : null)

const directionOfCars = (e: Event, loc: typeof Location.Type | undefined) => {
  const stated = e["open511-event-details"]?.event_road_direction?.replace(/^in\s+/i, "")
  return directionOf(stated) ?? directionOf(loc?.["link-alignment"]?.replace(/BOUND$/i, ""))
}

const geometryOf = (e: Event, loc: typeof Location.Type | undefined) => {
  if (e.geometry && representativePoint(e.geometry))
    return { type: e.geometry.type, coordinates: e.geometry.coordinates }
  const a = loc?.["primary-location"]?.["geo-location"]
  const b = loc?.["secondary-location"]?.["geo-location"]
  if (!a) return null
  return b && (b.latitude !== a.latitude || b.longitude !== a.longitude)
    ? {
        type: "LineString",
        coordinates: [
          [a.longitude, a.latitude],
          [b.longitude, b.latitude]
        ]
      }
    : { type: "Point", coordinates: [a.longitude, a.latitude] }
}

const toEvent =
  (jurisdiction: string) =>
  (e: Event): EventObservation | string | null => {
    if (e["is-draft"] === true) return null // not published yet
    const category = categoryKey(e.headline.category)
    const chainUpCategory = category === "CHAINUP" || category === "CHAINLAW"
    // a category this mapping does not know yet is published as an advisory, its category kept
    const type0 = TYPES[category] ?? "advisory"
    const detail = e.details[0]
    if (!detail) return "no details element"
    const loc = detail.locations?.[0]
    const geometry = geometryOf(e, loc)
    const point = geometry ? representativePoint(geometry) : null
    if (!geometry || !point) return "no usable geometry or geo-location"
    const phrases = (detail.descriptions ?? []).map(phraseOf).filter((p): p is Phrase => p !== null)
    const pattern = phrases.filter((k) => k.category?.toLowerCase() === "traffic_pattern").map((k) => k.code)
    const type: EventType = pattern.some((c) => CLOSED.test(c)) ? "closure" : type0
    const code = e.headline.code ?? phrases[0]?.code ?? null
    const chainUp = chainUpCategory ? { commercial: /commercial/i.test(code ?? ""), requirement: code } : null
    const o = e["open511-event-details"]
    const road = loc?.["route-designator"] ?? null
    const roads = [
      ...new Set((detail.locations ?? []).map((l) => l["route-designator"]).filter((r): r is string => !!r))
    ]
    const direction = directionOfCars(e, loc)
    // "between KM 52.4 and KM 52.3" names both ends in one field
    const between = /^between\s+(.+?)\s+and\s+(.+)$/i.exec(o?.event_road_from ?? "")
    const from =
      (between ? between[1] : placeName(o?.event_road_from)) ??
      loc?.["primary-location"]?.["cross-street-name"]?.[0] ??
      milepost(km(o?.start_point_linear_reference), "km")
    const to =
      (between ? between[2] : placeName(o?.event_road_to)) ??
      loc?.["secondary-location"]?.["cross-street-name"]?.[0] ??
      milepost(km(o?.end_point_linear_reference), "km")
    const plan = (kind: string) => words(e["communication-plans"]?.find((p) => p["plan-type"] === kind)?.description)
    // an end the agency did not set is its estimate (`duration-was-specified: false`)
    const endGiven = detail["duration-was-specified"] !== false
    const end = iso(detail["end-time"])
    const subType = chainUp
      ? chainUp.commercial
        ? "commercial_chain_up"
        : "chain_up"
      : (o?.event_subtype?.toLowerCase() ?? code?.toLowerCase() ?? null)
    return {
      source_id: e["event-id"],
      jurisdiction,
      type,
      sub_type: subType,
      cause: causeFromText(
        code,
        ...phrases.map((k) => k.code),
        type0 === "construction" ? "roadwork" : null,
        chainUp ? "snow" : null
      ),
      severity:
        SEVERITIES[e.representation?.priority?.name?.toUpperCase() ?? ""] ??
        (e.priority !== undefined && e.priority !== null && e.priority <= 1 ? "major" : "minor"),
      ...(SEVERITIES[e.representation?.priority?.name?.toUpperCase() ?? ""] ||
      (e.priority !== undefined && e.priority !== null)
        ? {}
        : { quality_flags: ["severity_inferred"] }),
      status: ENDED.has((e.status ?? "").toUpperCase()) ? "archived" : "active",
      title: buildTitle({ what: code ?? type0, road, direction, from, to }),
      description: plan("WEB") || plan("FULL_PREVIEW") || plan("AUDIO"),
      latitude: point.latitude,
      longitude: point.longitude,
      geometry,
      affected_roads: roads,
      direction,
      lanes_affected: pattern.length > 0 ? pattern.join("; ") : null,
      start_time: iso(detail["start-time"]),
      end_time: endGiven ? end : null,
      estimated_start_time: null,
      estimated_end_time: endGiven ? null : end,
      source_created_at: null,
      source_updated_at: iso(e["update-time"] ?? detail["update-time"]),
      road_class: roadClassOf(road),
      metadata: {
        headline_category: e.headline.category,
        headline_code: e.headline.code ?? null,
        message_number: e["message-number"] ?? null,
        update_number: e["update-number"] ?? null,
        time_zone: detail["start-time"]?.timeZoneId ?? e["update-time"]?.timeZoneId ?? null,
        area: o?.event_area_area_id ?? null,
        nearby_city: e["communication-plan-template"]?.["nearby-city-reference"] ?? null,
        linear_reference_km: km(o?.start_point_linear_reference) ?? km(loc?.["primary-location"]?.["linear-reference"]),
        chain_up: chainUp
      }
    }
  }

export const cars: EventAdapter = defineAdapter({
  id: "cars",
  revision: 2,
  kind: "events",
  formats: ["castle-rock-cars-json"],
  yields: ["construction", "incident", "special_event", "weather", "advisory", "restriction", "closure"],
  attribution: null,
  records: {
    envelope: Schema.Array(Schema.Unknown),
    items: (a) => a,
    record: Event,
    map: toEvent,
    idOf: field("event-id")
  }
})
