import { Schema } from "effect"
import { causeFromText } from "../../shared/domain/Cause.js"
import type { EventObservation, EventType, Severity } from "../../shared/domain/Event.js"
import { buildTitle } from "../../shared/domain/eventTitle.js"
import { directionOf, roadClassOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { representativePoint } from "../../shared/geo/representativePoint.js"
import { defineAdapter, type EventAdapter, field, Lenient } from "./Adapter.js"

/**
 * NavJOY "Form 568" work-zone permits (CDOT): a list of `{sys_gUid, data}` records of two kinds,
 * construction work zones (`ConstructionWorkZonePlan` polygons, a travel restriction, a closure
 * status) and speed-reduction requests (`srzmap` lines, posted and requested speeds, an approval).
 * A request that is not approved yet is not published; a finished or cancelled zone is archived.
 */

const Shape = Schema.Struct({
  type: Schema.String,
  coordinates: Schema.Array(Schema.Unknown),
  className: Lenient.optString
})
const Data = Schema.Struct({
  constructionType: Lenient.optString,
  description: Lenient.optString,
  descriptionForProject: Lenient.optString,
  routeName: Lenient.optString,
  streetNameFrom: Lenient.optString,
  streetNameTo: Lenient.optString,
  mileMarkerStart: Lenient.optString,
  mileMarkerEnd: Lenient.optString,
  travelRestriction: Lenient.optString,
  directionOfTraffic: Lenient.optString,
  closureStatus: Lenient.optString,
  permitID: Lenient.optString,
  permitNumber: Lenient.optString,
  actualStartDate: Lenient.optString,
  actualEndDate: Lenient.optString,
  plannedStartDate: Lenient.optString,
  plannedEndDate: Lenient.optString,
  workStartDate: Lenient.optString,
  workEndDate: Lenient.optString,
  currentPostedSpeed: Lenient.optString,
  requestedTemporarySpeed: Lenient.optString,
  approval: Schema.optional(Schema.NullOr(Schema.Struct({ value: Lenient.optString }))),
  ConstructionWorkZonePlan: Schema.optional(Schema.NullOr(Schema.Array(Shape))),
  srzmap: Schema.optional(Schema.NullOr(Schema.Array(Shape)))
})
const Permit = Schema.Struct({ sys_gUid: Schema.NonEmptyTrimmedString, data: Data })
type Permit = typeof Permit.Type

const ENDED = /^(completed?|closed|cancel+ed|inactive|expired)$/i
const FULL_CLOSURE = /full closure|road closed|all lanes closed|closed to (all )?traffic/i

/** The zone as drawn: the work-zone polygon(s), or the speed-reduction lines; labels are dropped. */
const geometryOf = (d: Permit["data"]) => {
  const zones = (d.ConstructionWorkZonePlan ?? []).filter((s) => s.type === "Polygon" && s.className !== "text")
  if (zones.length === 1) return { type: "Polygon", coordinates: zones[0].coordinates }
  if (zones.length > 1) return { type: "MultiPolygon", coordinates: zones.map((z) => z.coordinates) }
  const lines = (d.srzmap ?? []).filter((s) => s.type === "LineString" && s.coordinates.length >= 2)
  if (lines.length === 1) return { type: "LineString", coordinates: lines[0].coordinates }
  if (lines.length > 1) return { type: "MultiLineString", coordinates: lines.map((l) => l.coordinates) }
  return null
}

const directionOfTraffic = (s: string | null | undefined) => {
  const t = s?.trim() ?? ""
  return t.includes("/") || /both/i.test(t) ? "both" : directionOf(t)
}

const mm = (v: string | null | undefined) => (v && /^\d+(\.\d+)?$/.test(v.trim()) ? `MM ${v.trim()}` : null)
const speed = (v: string | null | undefined) => {
  const n = v ? parseFloat(v) : NaN
  return Number.isFinite(n) ? n : null
}

const toEvent =
  (jurisdiction: string) =>
  (p: Permit): EventObservation | string | null => {
    const d = p.data
    const speedRequest = d.srzmap !== undefined || d.requestedTemporarySpeed !== undefined
    const approval = d.approval?.value ?? null
    if (speedRequest && approval !== null && !/^approved$/i.test(approval)) return null // a request, not yet a work zone
    const geometry = geometryOf(d)
    const point = geometry ? representativePoint(geometry) : null
    if (!geometry || !point) return "no work-zone polygon or speed-reduction line"
    const restriction = d.travelRestriction?.trim() || null
    const closed = restriction !== null && FULL_CLOSURE.test(restriction)
    const type: EventType = closed ? "closure" : "construction"
    // a permit gives no severity: it is worked out from the restriction, and says so
    const severity: Severity = closed ? "major" : restriction !== null ? "moderate" : "minor"
    const road = d.routeName?.trim() || null
    const direction =
      directionOfTraffic(d.directionOfTraffic) ?? (restriction && /both directions/i.test(restriction) ? "both" : null)
    const what = d.constructionType?.trim() || (speedRequest ? "Work zone speed reduction" : "Work zone")
    const start = toIso(d.actualStartDate) ?? toIso(d.workStartDate)
    const description = [d.description ?? d.descriptionForProject, restriction]
      .filter((s): s is string => !!s && s.trim() !== "")
      .join(". ")
    return {
      source_id: p.sys_gUid,
      jurisdiction,
      type,
      sub_type: speedRequest ? "speed_reduction" : (d.constructionType?.trim().toLowerCase() ?? null),
      cause: causeFromText("roadwork"),
      severity,
      quality_flags: ["severity_inferred"],
      status: ENDED.test(d.closureStatus?.trim() ?? "") ? "archived" : "active",
      title: buildTitle({
        what,
        road,
        direction,
        from: d.streetNameFrom?.trim() || mm(d.mileMarkerStart),
        to: d.streetNameTo?.trim() || mm(d.mileMarkerEnd)
      }),
      description,
      latitude: point.latitude,
      longitude: point.longitude,
      geometry,
      affected_roads: road ? [road] : [],
      direction,
      lanes_affected: restriction,
      start_time: start,
      end_time: toIso(d.actualEndDate),
      estimated_start_time: start === null ? toIso(d.plannedStartDate) : null,
      estimated_end_time: toIso(d.plannedEndDate) ?? toIso(d.workEndDate),
      source_created_at: null,
      source_updated_at: null,
      road_class: roadClassOf(road),
      metadata: {
        permit_id: d.permitID ?? d.permitNumber ?? null,
        closure_status: d.closureStatus ?? null,
        approval,
        mile_marker_start: d.mileMarkerStart ?? null,
        mile_marker_end: d.mileMarkerEnd ?? null,
        posted_speed_mph: speed(d.currentPostedSpeed),
        requested_speed_mph: speed(d.requestedTemporarySpeed)
      }
    }
  }

export const navjoy: EventAdapter = defineAdapter({
  id: "navjoy",
  revision: 1,
  kind: "events",
  formats: ["navjoy-form-568-json"],
  yields: ["construction", "closure"],
  attribution: null,
  records: {
    envelope: Schema.Array(Schema.Unknown),
    items: (a) => a,
    record: Permit,
    map: toEvent,
    idOf: field("sys_gUid")
  }
})
