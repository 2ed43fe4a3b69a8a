import polyline from "@mapbox/polyline"
import { Schema } from "effect"
import { causeFromText } from "../../shared/domain/Cause.js"
import type { EventObservation, EventType, Geometry, Severity } from "../../shared/domain/Event.js"
import { directionOf, roadClassOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { validLatLng } from "../../shared/geo/representativePoint.js"
import { field, Lenient, defineAdapter, type EventAdapter } from "./Adapter.js"

/**
 * 511-style `api/v2/get/event` (ibi511: 511NY, 511 Alberta, 511 PEI, AZ511 …): a flat array,
 * times in Unix seconds, PlannedEndDate an estimate, optional Google-encoded polyline.
 */

const TimeField = Schema.optional(Schema.NullOr(Schema.Union(Schema.Number, Schema.String)))

const Record511 = Schema.Struct({
  ID: Lenient.id,
  SourceId: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  Organization: Lenient.optString,
  RoadwayName: Lenient.optString,
  DirectionOfTravel: Lenient.optString,
  Description: Lenient.optString,
  Reported: TimeField,
  LastUpdated: TimeField,
  StartDate: TimeField,
  PlannedEndDate: TimeField,
  LanesAffected: Lenient.optString,
  Latitude: Schema.Number,
  Longitude: Schema.Number,
  EventType: Schema.String,
  EventSubType: Lenient.optString,
  // 511GA's documented answer names it `Subtype`, and sends IsFullClosure as text
  Subtype: Lenient.optString,
  IsFullClosure: Schema.optional(Schema.NullOr(Schema.Union(Schema.Boolean, Schema.String))),
  Severity: Lenient.optString,
  EncodedPolyline: Lenient.optString,
  Comment: Lenient.optString,
  Details: Lenient.optString,
  DetourInstructions: Schema.optional(Schema.Unknown),
  LanesStatus: Lenient.optString
})
type Record511 = typeof Record511.Type

const TYPES: Record<string, EventType> = {
  roadwork: "construction",
  construction: "construction",
  closures: "closure",
  accidentsandincidents: "incident",
  incidents: "incident",
  specialevents: "special_event",
  generalinfo: "advisory",
  winterdrivingindex: "weather",
  weather: "weather",
  restrictions: "restriction"
}

const SEVERITIES: Record<string, Severity> = {
  minor: "minor",
  low: "minor",
  moderate: "moderate",
  medium: "moderate",
  major: "major",
  high: "major",
  critical: "critical",
  severe: "critical"
}

/** Detour instructions come as a text or a list of texts. */
const textOf = (v: unknown): string | null =>
  typeof v === "string"
    ? v
    : Array.isArray(v)
      ? v.filter((x): x is string => typeof x === "string").join("\n") || null
      : null

const lineFrom = (encoded: string | null | undefined): Geometry | null => {
  if (!encoded) return null
  try {
    const pts = polyline.decode(encoded) // [lat, lng] pairs
    if (pts.length < 2 || !pts.every(([lat, lng]) => validLatLng(lat, lng))) return null
    return { type: "LineString", coordinates: pts.map(([lat, lng]) => [lng, lat]) }
  } catch {
    return null
  }
}

const toEvent =
  (jurisdiction: string) =>
  (r: Record511): EventObservation | string => {
    if (!validLatLng(r.Latitude, r.Longitude)) return `invalid coordinates ${r.Latitude},${r.Longitude}`
    const type0 = TYPES[r.EventType.replace(/[\s_-]/g, "").toLowerCase()]
    if (!type0) return `unknown EventType ${r.EventType}`
    const fullClosure =
      r.IsFullClosure === true ||
      (typeof r.IsFullClosure === "string" && r.IsFullClosure.trim().toLowerCase() === "true")
    const type = fullClosure ? "closure" : type0
    const start = toIso(r.StartDate) ?? toIso(r.Reported)
    const plannedEnd = toIso(r.PlannedEndDate)
    const road = r.RoadwayName?.trim() || null
    const subType = r.EventSubType?.trim() || r.Subtype?.trim() || null
    const severityGiven = SEVERITIES[(r.Severity ?? "").trim().toLowerCase()]
    // the agency's own remarks ("Open to local traffic only.") belong with its description
    const said = (r.Description ?? "").trim()
    const remarks = [r.Comment, r.Details, textOf(r.DetourInstructions)]
      .map((t) => t?.trim() ?? "")
      .filter((t) => t !== "" && !said.includes(t))
    return {
      source_id: String(r.ID),
      jurisdiction,
      type,
      sub_type: subType,
      cause: causeFromText(subType, type0 === "construction" ? "roadwork" : null, r.Description),
      severity: severityGiven ?? (fullClosure ? "major" : "minor"),
      ...(severityGiven ? {} : { quality_flags: ["severity_inferred"] }),
      status: "active",
      title: `${subType ?? type0.replace("_", " ")}${road ? ` on ${road}` : ""}`.replace(/^./, (c) => c.toUpperCase()),
      description: [said, ...new Set(remarks)].filter((t) => t !== "").join("\n\n"),
      latitude: r.Latitude,
      longitude: r.Longitude,
      geometry: lineFrom(r.EncodedPolyline) ?? { type: "Point", coordinates: [r.Longitude, r.Latitude] },
      affected_roads: road ? [road] : [],
      direction: directionOf(r.DirectionOfTravel),
      lanes_affected: r.LanesAffected?.trim() || r.LanesStatus?.trim() || null,
      start_time: start,
      end_time: null,
      estimated_start_time: null,
      estimated_end_time: plannedEnd,
      source_created_at: toIso(r.Reported),
      source_updated_at: toIso(r.LastUpdated),
      road_class: roadClassOf(road),
      metadata: {
        event_type: r.EventType,
        organization: r.Organization ?? null,
        upstream_source_id: r.SourceId ?? null,
        is_full_closure: r.IsFullClosure === undefined || r.IsFullClosure === null ? null : fullClosure,
        severity: r.Severity ?? null,
        comment: r.Comment?.trim() || null,
        details: r.Details?.trim() || null
      }
    }
  }

export const ibi511: EventAdapter = defineAdapter({
  id: "ibi511",
  revision: 3,
  kind: "events",
  formats: ["ibi511-v2-get-event"],
  yields: ["construction", "closure", "incident", "special_event", "advisory", "weather", "restriction"],
  attribution: null,
  records: {
    envelope: Schema.Array(Schema.Unknown),
    items: (a) => a,
    record: Record511,
    map: toEvent,
    idOf: field("ID")
  }
})
