import { Either, Schema } from "effect"
import { causeFromText } from "../../shared/domain/Cause.js"
import type { EventObservation, EventType, Severity } from "../../shared/domain/Event.js"
import { readableTitle } from "../../shared/domain/eventTitle.js"
import { directionOf, roadClassOf } from "../../shared/domain/Road.js"
import { defineAdapter, type EventAdapter } from "./Adapter.js"
import { at, many, readXml, text } from "./lib/xml.js"

/**
 * TMDD v3 event messages (XML): every Full Event Update (`FEU`) in the document, however it is
 * wrapped (a SOAP `fEUMsg`, a `wrapper` root, a bare list). Read with fast-xml-parser
 * (pipeline/sources/lib/xml.ts). TMDD writes positions in microdegrees and times as
 * date + time + UTC offset, the offset as the centre states it.
 */

/** An FEU as far as the record loop checks it; the rest is read field by field in `toEvent`. */
const Feu = Schema.Struct(
  {
    "event-reference": Schema.Struct(
      { "event-id": Schema.NonEmptyTrimmedString },
      Schema.Record({ key: Schema.String, value: Schema.Unknown })
    )
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
type Feu = typeof Feu.Type

/**
 * Every FEU anywhere in the document (SOAP bodies, wrappers and lists nest them differently),
 * and whether it is a TMDD event message at all (an empty `fEUMsg` is a feed with no events).
 */
const feusIn = (doc: unknown) => {
  const feus: Array<unknown> = []
  let message = false
  const walk = (x: unknown, depth: number) => {
    if (depth > 8 || typeof x !== "object" || x === null) return
    if (Array.isArray(x)) return x.forEach((y) => walk(y, depth))
    for (const [k, v] of Object.entries(x)) {
      if (k === "FEU") feus.push(...many(v))
      else {
        if (k === "fEUMsg") message = true
        walk(v, depth + 1)
      }
    }
  }
  walk(doc, 0)
  return { feus, tmdd: message || feus.length > 0 }
}

/** TMDD headline categories (ITIS groups) → our event types. */
const CATEGORIES: Record<string, EventType> = {
  "accidents-and-incidents": "incident",
  obstructions: "incident",
  "mobile-situation": "incident",
  disturbances: "incident",
  "incident-response-status": "incident",
  "animal-obstruction": "incident",
  roadwork: "construction",
  "road-work": "construction",
  "maintenance-activities": "construction",
  closures: "closure",
  "closures-and-restrictions": "closure",
  restrictions: "restriction",
  "restriction-class": "restriction",
  "special-events": "special_event",
  "sporting-events": "special_event",
  "weather-conditions": "weather",
  precipitation: "weather",
  winds: "weather",
  "visibility-and-air-quality": "weather",
  temperature: "weather",
  "pavement-conditions": "weather",
  "winter-driving-index": "weather",
  "winter-driving-restrictions": "weather",
  "traffic-conditions": "advisory",
  "device-status": "advisory",
  "parking-information": "advisory",
  "traveler-information": "advisory"
}
const WHAT: Partial<Record<EventType, string>> = {
  incident: "Incident",
  construction: "Road work",
  closure: "Closure",
  restriction: "Restriction",
  special_event: "Special event",
  weather: "Weather",
  advisory: "Advisory"
}
const SEVERITIES: Record<string, Severity> = {
  none: "minor",
  minor: "minor",
  moderate: "moderate",
  major: "major",
  "natural disaster": "critical"
}
const ENDED = new Set(["cleared", "ended", "closed", "canceled", "cancelled", "inactive", "historical"])

/** date YYYYMMDD + time HHMM[SS[ff…]] + offset ±HHMM → ISO UTC; null when the date is empty. */
const tmddTime = (node: unknown): string | null => {
  const date = text(at(node, "date"))
  if (!date || !/^\d{8}$/.test(date)) return null
  const time = (text(at(node, "time")) ?? "0000").padEnd(6, "0")
  const off = text(at(node, "offset")) ?? "+0000"
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(off)
  const iso = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}${m ? `${m[1]}${m[2]}:${m[3]}` : "Z"}`
  const ms = Date.parse(iso)
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null
}

/** microdegrees → degrees; TMDD integers are 1e-6° (a value already in degrees is taken as is) */
const degrees = (v: string | null) => {
  if (v === null) return null
  const n = Number(v)
  if (!Number.isFinite(n)) return null
  return Math.abs(n) > 360 ? n / 1e6 : n
}

const pointOf = (loc: unknown): [number, number] | null => {
  const lat = degrees(text(at(loc, "geo-location", "latitude")))
  const lng = degrees(text(at(loc, "geo-location", "longitude")))
  return lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180 || (lat === 0 && lng === 0)
    ? null
    : [lng, lat]
}

const crossStreet = (loc: unknown) =>
  many(at(loc, "cross-street-name", "cross-street-name-item"))
    .map(text)
    .find((s) => s !== null) ?? null

const toEvent =
  (jurisdiction: string) =>
  (f: Feu): EventObservation | string => {
    const id = f["event-reference"]["event-id"].trim()
    const indicators = many(at(f, "event-indicators", "event-indicator")) as Array<Record<string, unknown>>
    const indicator = (key: string) => indicators.map((i) => text(i[key])).find((v) => v !== null) ?? null
    const headline = at(f, "event-headline", "headline")
    const [category, phrase] =
      typeof headline === "object" && headline !== null
        ? (Object.entries(headline).find(([k]) => k !== "#text") ?? [null, null])
        : [null, null]
    if (category === null) return "no event-headline category"
    const type = CATEGORIES[category]
    if (!type) return `unknown event-headline category ${category}`
    const detail = many(at(f, "event-element-details", "event-element-detail"))[0]
    const link = at(detail, "event-locations", "event-location", "location-on-link")
    const primary = at(link, "primary-location")
    const secondary = at(link, "secondary-location")
    const p1 = pointOf(primary)
    if (p1 === null) return "no usable geo-location on the primary location"
    const p2 = pointOf(secondary)
    // a stretch between two points is kept as the line it is
    const geometry =
      p2 && (p2[0] !== p1[0] || p2[1] !== p1[1])
        ? { type: "LineString", coordinates: [p1, p2] }
        : { type: "Point", coordinates: p1 }
    const road = text(at(link, "link-name")) ?? text(at(primary, "link-name")) ?? text(at(link, "link-id"))
    const rawDirection = text(at(link, "link-direction"))
    const direction = directionOf(rawDirection)
    const from = crossStreet(primary)
    const to = secondary ? crossStreet(secondary) : null
    const subType = text(phrase)?.toLowerCase() ?? null
    const times = at(detail, "event-times")
    const description = many(at(detail, "event-descriptions", "event-description"))
      .map((d) => text(at(d, "additional-text", "description")))
      .filter((s): s is string => s !== null)
      .join(" ")
    const lanes = many(at(detail, "event-lanes", "event-lane")).flatMap((l) => {
      // `event-lanes-affected` lists lane numbers; `lanes-total-affected` counts them
      const numbers = many(at(l, "event-lanes-affected", "lanes"))
        .map(text)
        .filter((n): n is string => n !== null)
      const count = text(at(l, "lanes-total-affected"))
      const total = text(at(l, "lanes-total-original"))
      const kind = text(at(l, "lanes-type"))
      const label = kind ? `${kind}: ` : ""
      const of = total ? ` of ${total}` : ""
      if (numbers.length > 0)
        return [`${label}lane${numbers.length > 1 ? "s" : ""} ${[...numbers].sort().join(", ")}${of} affected`]
      return count === null || count === "0" ? [] : [`${label}${count}${of} lanes affected`]
    })
    const status = indicator("status")?.toLowerCase() ?? null
    const ended = (status !== null && ENDED.has(status)) || indicator("active-flag")?.toLowerCase() === "no"
    const name = text(at(detail, "event-name"))
    const what = subType && subType !== "incident" && subType !== "major event" ? subType : (WHAT[type] ?? type)
    return {
      source_id: id,
      jurisdiction,
      type,
      sub_type: subType,
      cause: causeFromText(subType, type === "construction" ? "roadwork" : null, description),
      severity: SEVERITIES[indicator("severity")?.toLowerCase() ?? ""] ?? "minor",
      ...(SEVERITIES[indicator("severity")?.toLowerCase() ?? ""] ? {} : { quality_flags: ["severity_inferred"] }),
      status: ended ? "archived" : "active",
      title: readableTitle(name, { what, road, direction, from, to }),
      description,
      latitude: p1[1],
      longitude: p1[0],
      geometry,
      affected_roads: road ? [road] : [],
      direction,
      lanes_affected: lanes.length > 0 ? lanes.join("; ") : null,
      start_time: tmddTime(at(times, "start-time")),
      end_time: tmddTime(at(times, "end-time")),
      estimated_start_time: tmddTime(at(times, "expected-start-time")),
      estimated_end_time:
        tmddTime(at(times, "expected-end-time")) ?? tmddTime(at(times, "valid-period", "expected-end-time")),
      source_created_at: null,
      source_updated_at: tmddTime(at(f, "event-reference", "update-time")) ?? tmddTime(at(times, "update-time")),
      road_class: roadClassOf(road),
      metadata: {
        organization_id: text(at(f, "message-header", "organization-sending", "organization-id")),
        event_update: text(at(f, "event-reference", "event-update")),
        headline_category: category,
        event_category: text(at(detail, "event-category")),
        link_direction: rawDirection,
        linear_reference: text(at(primary, "linear-reference")),
        upstream_name: name
      }
    }
  }

export const tmdd: EventAdapter = defineAdapter({
  id: "tmdd",
  revision: 1,
  kind: "events",
  formats: ["tmdd-3-feu-xml"],
  yields: ["incident", "construction", "closure", "restriction", "special_event", "weather", "advisory"],
  attribution: null,
  records: {
    read: (payload) =>
      Either.flatMap(readXml(payload), (doc) => {
        const { feus, tmdd: isTmdd } = feusIn(doc)
        return isTmdd
          ? Either.right({ feus })
          : Either.left("payload is not in the expected format: no TMDD fEUMsg or FEU element")
      }),
    envelope: Schema.Struct({ feus: Schema.Array(Schema.Unknown) }),
    items: (e) => e.feus,
    record: Feu,
    map: toEvent,
    idOf: (raw) => text(at(raw, "event-reference", "event-id")) ?? undefined
  }
})
