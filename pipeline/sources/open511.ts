import { Schema } from "effect"
import { causeFromText } from "../../shared/domain/Cause.js"
import type { EventObservation, EventType, Severity } from "../../shared/domain/Event.js"
import { directionOf, roadClassOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { representativePoint } from "../../shared/geo/representativePoint.js"
import { field, Lenient, defineAdapter, type EventAdapter } from "./Adapter.js"

/** Open511 v1 JSON events (`{events, pagination, meta}`), incl. DriveBC's `+` extensions. */

const Geometry = Schema.Struct({ type: Schema.String, coordinates: Schema.Array(Schema.Unknown) })

const Road = Schema.Struct({
  name: Lenient.optString,
  from: Lenient.optString,
  to: Lenient.optString,
  direction: Lenient.optString,
  state: Lenient.optString,
  lanes_open: Lenient.optNumber,
  lanes_closed: Lenient.optNumber
})

const Event = Schema.Struct({
  id: Schema.NonEmptyTrimmedString,
  status: Schema.Literal("ACTIVE", "ARCHIVED"),
  event_type: Schema.String,
  headline: Lenient.optString,
  description: Lenient.optString,
  severity: Lenient.optString,
  created: Lenient.optString,
  updated: Lenient.optString,
  event_subtypes: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  // DriveBC's own API shape carries these instead of the spec names
  event_sub_type: Lenient.optString,
  location: Schema.optional(Schema.NullOr(Geometry)),
  geography: Schema.optional(Schema.NullOr(Geometry)),
  closed: Lenient.optBoolean,
  route_display: Lenient.optString,
  direction: Lenient.optString,
  schedule: Schema.optional(Schema.NullOr(Schema.Struct({ intervals: Schema.optional(Schema.Array(Schema.String)) }))),
  roads: Schema.optional(Schema.NullOr(Schema.Array(Road))),
  "+linear_reference_km": Lenient.optNumber
})
type Event = typeof Event.Type

const Envelope = Schema.Struct({ events: Schema.Array(Schema.Unknown) })

const TYPES: Record<string, EventType> = {
  CONSTRUCTION: "construction",
  INCIDENT: "incident",
  SPECIAL_EVENT: "special_event",
  WEATHER_CONDITION: "weather",
  ROAD_CONDITION: "advisory"
}

const SEVERITIES: Record<string, Severity> = { MINOR: "minor", MODERATE: "moderate", MAJOR: "major" }

const interval = (e: Event): [string | null, string | null] => {
  const first = e.schedule?.intervals?.[0]
  if (!first) return [null, null]
  const [start, end] = first.split("/")
  return [toIso(start), toIso(end)]
}

const localId = (id: string) => (id.includes("/") ? id.slice(id.indexOf("/") + 1) : id)

const toEvent =
  (jurisdiction: string) =>
  (e: Event): EventObservation | string => {
    const geometry = e.geography ?? e.location ?? null
    const point = geometry ? representativePoint(geometry) : null
    if (!geometry || !point) return "no usable geography"
    const type0 = TYPES[e.event_type.toUpperCase()]
    if (!type0) return `unknown event_type ${e.event_type}`
    const roads = e.roads ?? []
    const closed = e.closed === true || roads.some((r) => r.state?.toUpperCase() === "CLOSED")
    const type = closed ? "closure" : type0
    const subTypes = e.event_subtypes ?? (e.event_sub_type ? [e.event_sub_type] : [])
    const subType = subTypes[0]?.toLowerCase() ?? null
    const [start, end] = interval(e)
    const roadNames = roads.map((r) => r.name).filter((n): n is string => !!n)
    const lanes = roads
      .filter((r) => r.lanes_closed != null || r.lanes_open != null)
      .map((r) => `${r.name ?? "road"}: ${r.lanes_closed ?? "?"} closed, ${r.lanes_open ?? "?"} open`)
    const direction = directionOf(roads[0]?.direction ?? e.direction)
    const headline = e.headline && e.headline.toUpperCase() !== e.event_type.toUpperCase() ? e.headline : null
    const where = roadNames[0] ?? e.route_display ?? null
    return {
      source_id: localId(e.id),
      jurisdiction,
      type,
      sub_type: subType,
      cause: causeFromText(...subTypes, type0 === "construction" ? "roadwork" : null, e.description),
      severity: SEVERITIES[e.severity?.toUpperCase() ?? ""] ?? "minor",
      ...(SEVERITIES[e.severity?.toUpperCase() ?? ""] ? {} : { quality_flags: ["severity_inferred"] }),
      status: e.status === "ARCHIVED" ? "archived" : "active",
      title:
        headline ?? `${type0.replace("_", " ")}${where ? ` on ${where}` : ""}`.replace(/^./, (c) => c.toUpperCase()),
      description: e.description ?? "",
      latitude: point.latitude,
      longitude: point.longitude,
      geometry,
      affected_roads: roadNames,
      direction,
      lanes_affected: lanes.length > 0 ? lanes.join("; ") : closed ? "all lanes closed" : null,
      start_time: start,
      end_time: end,
      estimated_start_time: null,
      estimated_end_time: null,
      source_created_at: toIso(e.created),
      source_updated_at: toIso(e.updated),
      road_class: roadClassOf(roadNames[0]),
      metadata: {
        open511_id: e.id,
        event_type: e.event_type,
        severity: e.severity ?? null,
        roads: roads.map((r) => ({ name: r.name ?? null, from: r.from ?? null, to: r.to ?? null })),
        linear_reference_km: e["+linear_reference_km"] ?? null
      }
    }
  }

export const open511: EventAdapter = defineAdapter({
  id: "open511",
  revision: 1,
  kind: "events",
  formats: ["open511-1.0-json"],
  yields: ["construction", "incident", "special_event", "weather", "advisory", "closure"],
  attribution: null,
  records: {
    envelope: Envelope,
    items: (e) => e.events,
    record: Event,
    map: toEvent,
    idOf: (raw) => {
      const id = field("id")(raw)
      return id === undefined ? undefined : localId(id)
    }
  }
})
