import { Schema } from "effect"
import type { FeatureObservation } from "../../shared/domain/Feature.js"
import { directionOf, roadClassOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { representativePoint } from "../../shared/geo/representativePoint.js"
import { decodeEach, Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"

/**
 * CDOT OpenTMS planned events (GeoJSON Features: one, an array, or a FeatureCollection) as
 * time-bounded features: planned work → `future_construction`, local and special events →
 * `special_events`, anything else (chain law, advisories) → `alerts`. The free-text `type` is
 * mapped by keyword and kept as `properties.planned_type`.
 */

const Feature = Schema.Struct({
  type: Schema.Literal("Feature"),
  geometry: Schema.Struct({ type: Schema.String, coordinates: Schema.Array(Schema.Unknown) }),
  properties: Schema.Struct({
    id: Schema.NonEmptyTrimmedString,
    type: Schema.String,
    name: Lenient.optString,
    routeName: Lenient.optString,
    direction: Lenient.optString,
    startTime: Lenient.optString,
    clearTime: Lenient.optString,
    lastUpdated: Lenient.optString,
    startMarker: Lenient.optNumber,
    endMarker: Lenient.optNumber,
    travelerInformationMessage: Lenient.optString,
    isOversizedLoadsProhibited: Lenient.optBoolean,
    schedule: Schema.optional(Schema.NullOr(Schema.Array(Schema.Struct({ startTime: Lenient.optString, endTime: Lenient.optString })))),
    laneImpacts: Schema.optional(Schema.NullOr(Schema.Array(Schema.Struct({ direction: Lenient.optString, laneCount: Lenient.optNumber, laneClosures: Lenient.optString }))))
  })
})
type Feature = typeof Feature.Type

const Envelope = Schema.Union(
  Schema.Array(Schema.Unknown),
  Schema.Struct({ type: Schema.Literal("FeatureCollection"), features: Schema.Array(Schema.Unknown) }),
  Schema.Struct({ type: Schema.Literal("Feature") }, Schema.Record({ key: Schema.String, value: Schema.Unknown }))
)

export const plannedTypeOf = (t: string) =>
  /construct|maint|install|resurfac|paving|repair|work|striping|bridge|wall|replace/i.test(t)
    ? "future_construction"
    : /event|concert|parade|game|race|festival|marathon/i.test(t)
      ? "special_events"
      : "alerts"

/** "I-70W" → "I-70": OpenTMS appends the travel direction to the route. */
export const routeOf = (r: string | null | undefined) => (r ? r.trim().replace(/^([A-Z]+-\d+[A-Z]?)[NSEW]$/, "$1") : null)

/** Bitmask string of closed lanes ("0" = none closed) → count of closed lanes. */
export const closedLanes = (mask: string | null | undefined) => (mask && /^[01]+$/.test(mask) ? [...mask].filter((c) => c === "1").length : undefined)

const toFeature = (jurisdiction: string) => (f: Feature): FeatureObservation | string => {
  const p = f.properties
  const point = representativePoint({ type: f.geometry.type, coordinates: f.geometry.coordinates })
  if (!point) return `no usable coordinates in ${f.geometry.type} geometry`
  const schedule = (p.schedule ?? []).map((s) => ({ start: toIso(s.startTime), end: toIso(s.endTime) }))
  const start = toIso(p.startTime) ?? schedule[0]?.start ?? null
  const end = toIso(p.clearTime) ?? schedule[schedule.length - 1]?.end ?? null
  const road = routeOf(p.routeName)
  const lanes = (p.laneImpacts ?? []).map((l) => ({ direction: l.direction ?? null, lane_count: l.laneCount ?? null, closed_lanes: closedLanes(l.laneClosures) ?? null }))
  return {
    source_id: p.id,
    jurisdiction,
    feature_type: plannedTypeOf(p.type),
    name: p.name?.replace(/-\d+$/, "").trim() || p.type,
    description: p.travelerInformationMessage ?? "",
    latitude: point.latitude,
    longitude: point.longitude,
    geometry: f.geometry.type === "Point" ? null : { type: f.geometry.type, coordinates: f.geometry.coordinates },
    road_name: road,
    direction: directionOf(p.direction),
    is_active: true,
    start_time: start,
    end_time: end,
    estimated_start_time: null,
    estimated_end_time: null,
    properties: {
      planned_type: p.type,
      ...(road ? { road_class: roadClassOf(road) } : {}),
      ...(p.startMarker !== undefined && p.startMarker !== null ? { from_milepost: p.startMarker } : {}),
      ...(p.endMarker !== undefined && p.endMarker !== null ? { to_milepost: p.endMarker } : {}),
      ...(schedule.length > 0 ? { schedule } : {}),
      ...(lanes.length > 0 ? { lane_impacts: lanes } : {}),
      ...(p.isOversizedLoadsProhibited ? { oversize_loads_prohibited: true } : {})
    },
    has_details: false
  }
}

export const cdot_planned_events: FeatureAdapter = defineAdapter({
  id: "cdot_planned_events",
  revision: 1,
  kind: "features",
  formats: ["cdot-opentms-planned-event"],
  yields: ["future_construction", "special_events", "alerts"],
  attribution: null,
  decode: (payload, ctx) =>
    decodeEach(payload, ctx, {
      adapter: cdot_planned_events, envelope: Envelope, record: Feature, map: toFeature(ctx.jurisdiction),
      items: (e) => (Array.isArray(e) ? e : "features" in e && Array.isArray(e.features) ? e.features : [e]),
      idOf: (raw) => {
        const id = (raw as { properties?: { id?: unknown } } | null)?.properties?.id
        return typeof id === "string" && id.trim() !== "" ? id : undefined
      }
    })
})
