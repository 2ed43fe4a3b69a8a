import { Schema } from "effect"
import { causeFromText } from "../../shared/domain/Cause.js"
import type { EventObservation, EventType, Severity } from "../../shared/domain/Event.js"
import { milepost, readableTitle } from "../../shared/domain/eventTitle.js"
import { directionOf, roadClassOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { representativePoint } from "../../shared/geo/representativePoint.js"
import { field, Lenient, defineAdapter, type EventAdapter } from "./Adapter.js"
import { valueInWords } from "./lib/codeWords.js"

/** USDOT WZDx 4.x WorkZoneFeed; CWZ 1.0 is the same shape and decodes here too. */

const Lane = Schema.Struct({
  order: Lenient.optNumber,
  status: Lenient.optString,
  type: Lenient.optString
})

/** One WZDx feature as the adapter checks it (exported for bench:ingest's decoding floor). */
export const Feature = Schema.Struct({
  id: Lenient.id,
  geometry: Schema.Struct({ type: Schema.String, coordinates: Schema.Array(Schema.Unknown) }),
  properties: Schema.Struct({
    core_details: Schema.Struct({
      event_type: Schema.String,
      road_names: Schema.Array(Schema.String),
      direction: Schema.String,
      name: Lenient.optString,
      description: Lenient.optString,
      creation_date: Lenient.optString,
      update_date: Lenient.optString,
      data_source_id: Lenient.optString,
      related_road_events: Schema.optional(
        Schema.NullOr(Schema.Array(Schema.Struct({ type: Schema.String, id: Schema.String })))
      )
    }),
    start_date: Schema.String,
    end_date: Lenient.optString,
    is_start_date_verified: Lenient.optBoolean,
    is_end_date_verified: Lenient.optBoolean,
    vehicle_impact: Lenient.optString,
    work_zone_type: Lenient.optString,
    types_of_work: Schema.optional(Schema.NullOr(Schema.Array(Schema.Struct({ type_name: Schema.String })))),
    lanes: Schema.optional(Schema.NullOr(Schema.Array(Lane))),
    reduced_speed_limit_kph: Lenient.optNumber,
    worker_presence: Schema.optional(Schema.Unknown),
    restrictions: Schema.optional(Schema.Unknown),
    beginning_cross_street: Lenient.optString,
    ending_cross_street: Lenient.optString,
    beginning_milepost: Lenient.optNumber,
    ending_milepost: Lenient.optNumber
  })
})
type Feature = typeof Feature.Type

const Envelope = Schema.Struct({
  type: Schema.Literal("FeatureCollection"),
  features: Schema.Array(Schema.Unknown),
  feed_info: Schema.optional(Schema.Struct({ version: Lenient.optString, publisher: Lenient.optString }))
})

/** WZDx gives no severity: the vehicle impact is the agency's fact, and the editor works severity out from it. */
const severityOf = (impact: string | null | undefined): Severity => {
  switch (impact) {
    case "all-lanes-closed":
      return "major"
    case "unknown":
    case "all-lanes-open":
    case null:
    case undefined:
      return "minor"
    default:
      return "moderate" // some lanes closed, shifted or alternating
  }
}

const typeOf = (eventType: string, impact: string | null | undefined): EventType => {
  if (impact === "all-lanes-closed") return "closure"
  switch (eventType) {
    case "detour":
      return "advisory"
    case "restriction":
      return "restriction"
    case "incident":
      return "incident"
    default:
      return "construction"
  }
}

/** A lane as a reader names it: "shoulder", "lane 2", "exit ramp". */
const laneName = (l: { order?: number | null; type?: string | null }) =>
  l.type && l.type !== "general" ? l.type.replace(/-/g, " ") : `lane ${l.order ?? "?"}`

/**
 * Lane facts in words. The values are WZDx's own enumerations, so the adapter words them as it
 * maps them (a lookup), and the editor has nothing to repair on every record of a big feed.
 */
const lanesText = (f: Feature["properties"]): string | null => {
  const closed = (f.lanes ?? [])
    .filter((l) => l.status && l.status !== "open")
    .map((l) => `${laneName(l)} ${valueInWords(l.status!)}`)
  const parts = [
    f.vehicle_impact && f.vehicle_impact !== "unknown" ? valueInWords(f.vehicle_impact) : null,
    ...closed
  ].filter(Boolean)
  return parts.length > 0 ? parts.join("; ") : null
}

/** The kind of work or event in words: "Closure", "Bridge work", "Detour", "Work zone". */
const whatOf = (type: EventType, eventType: string, work: string | null) => {
  if (type === "closure") return "Closure"
  if (work && work !== "other") return `${work.replace(/-/g, " ")}${/work$/.test(work) ? "" : " work"}`
  return eventType === "detour"
    ? "Detour"
    : eventType === "restriction"
      ? "Restriction"
      : eventType === "incident"
        ? "Incident"
        : "Work zone"
}

const relatedRecords = (related: ReadonlyArray<{ type: string; id: string }> | null | undefined) => {
  if (!related || related.length === 0) return null
  const workZone = related.find((r) => r.type === "related-work-zone")?.id
  const detours = related.filter((r) => r.type === "related-detour").map((r) => r.id)
  return { ...(workZone ? { detour_for: workZone } : {}), ...(detours.length > 0 ? { detours } : {}) }
}

const SEVERITY_INFERRED: ReadonlyArray<string> = Object.freeze(["severity_inferred"])

const toEvent =
  (jurisdiction: string) =>
  (f: Feature): EventObservation | string => {
    const p = f.properties
    const core = p.core_details
    const point = representativePoint({ type: f.geometry.type, coordinates: f.geometry.coordinates })
    if (!point) return `no usable coordinates in ${f.geometry.type} geometry`
    const start = toIso(p.start_date)
    if (!start) return `unreadable start_date ${JSON.stringify(p.start_date)}`
    const end = toIso(p.end_date)
    const startVerified = p.is_start_date_verified === true
    const endVerified = p.is_end_date_verified === true
    const road = core.road_names[0] ?? null
    const subType =
      p.work_zone_type ?? p.types_of_work?.[0]?.type_name ?? (core.event_type === "detour" ? "detour" : null)
    const type = typeOf(core.event_type, p.vehicle_impact)
    const event: EventObservation = {
      source_id: String(f.id),
      jurisdiction,
      type,
      sub_type: subType,
      cause: core.event_type === "work-zone" ? "roadwork" : causeFromText(core.description, subType),
      severity: severityOf(p.vehicle_impact),
      status: "active", // WZDx 4 has no status: an ended work zone drops out of the feed
      // feeds often put an internal id in `name`: the title is then built from the road and the work
      title: readableTitle(core.name, {
        what: whatOf(type, core.event_type, p.types_of_work?.[0]?.type_name ?? null),
        road,
        direction: directionOf(core.direction),
        from: p.beginning_cross_street ?? milepost(p.beginning_milepost, "mi"),
        to: p.ending_cross_street ?? milepost(p.ending_milepost, "mi")
      }),
      description: core.description ?? "",
      latitude: point.latitude,
      longitude: point.longitude,
      geometry: { type: f.geometry.type, coordinates: f.geometry.coordinates },
      affected_roads: core.road_names,
      direction: directionOf(core.direction),
      lanes_affected: lanesText(p),
      start_time: start,
      end_time: endVerified ? end : null,
      estimated_start_time: startVerified ? null : start,
      estimated_end_time: endVerified ? null : end,
      source_created_at: toIso(core.creation_date),
      source_updated_at: toIso(core.update_date),
      road_class: roadClassOf(road),
      metadata: {
        event_type: core.event_type,
        vehicle_impact: p.vehicle_impact ?? null,
        reduced_speed_limit_kph: p.reduced_speed_limit_kph ?? null,
        beginning_cross_street: p.beginning_cross_street ?? null,
        ending_cross_street: p.ending_cross_street ?? null,
        beginning_milepost: p.beginning_milepost ?? null,
        ending_milepost: p.ending_milepost ?? null,
        data_source_id: core.data_source_id ?? null,
        upstream_name: core.name ?? null
      },
      quality_flags: SEVERITY_INFERRED
    }
    // a detour names the work zone it serves; the work zone its detours: the pipeline links them.
    // Added only where present, so the common record's literal keeps its one fast shape
    const related = relatedRecords(core.related_road_events)
    if (related !== null) Object.assign(event.metadata, related)
    return event
  }

export const wzdx: EventAdapter = defineAdapter({
  id: "wzdx",
  revision: 4,
  kind: "events",
  formats: ["wzdx-4.x-workzonefeed", "cwz-1.0"],
  yields: ["construction", "closure", "advisory", "restriction", "incident"],
  attribution: null,
  records: {
    envelope: Envelope,
    items: (e) => e.features,
    record: Feature,
    map: toEvent,
    idOf: field("id")
  }
})
