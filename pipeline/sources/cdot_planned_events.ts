import type { FeatureObservation } from "../../shared/domain/Feature.js"
import { directionOf, roadClassOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { representativePoint } from "../../shared/geo/representativePoint.js"
import { defineAdapter, type FeatureAdapter } from "./Adapter.js"
import { closedLanes, openTmsFormat, type OpenTmsFeature, routeOf } from "./lib/opentmsRecord.js"

/**
 * CDOT OpenTMS planned events (GeoJSON Features: one, an array, or a FeatureCollection) as
 * time-bounded features: planned work → `future_construction`, local and special events →
 * `special_events`, anything else (chain law, advisories) → `alerts`. The free-text `type` is
 * mapped by keyword and kept as `properties.planned_type`.
 */

export const plannedTypeOf = (t: string) =>
  /construct|maint|install|resurfac|paving|repair|work|striping|bridge|wall|replace/i.test(t)
    ? "future_construction"
    : /event|concert|parade|game|race|festival|marathon/i.test(t)
      ? "special_events"
      : "alerts"

const toFeature =
  (jurisdiction: string) =>
  (f: OpenTmsFeature): FeatureObservation | string => {
    const p = f.properties
    const point = representativePoint({ type: f.geometry.type, coordinates: f.geometry.coordinates })
    if (!point) return `no usable coordinates in ${f.geometry.type} geometry`
    const schedule = (p.schedule ?? []).map((s) => ({ start: toIso(s.startTime), end: toIso(s.endTime) }))
    const start = toIso(p.startTime) ?? schedule[0]?.start ?? null
    const end = toIso(p.clearTime) ?? schedule[schedule.length - 1]?.end ?? null
    const road = routeOf(p.routeName)
    const lanes = (p.laneImpacts ?? []).map((l) => ({
      direction: l.direction ?? null,
      lane_count: l.laneCount ?? null,
      closed_lanes: closedLanes(l.laneClosures) ?? null
    }))
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
  records: {
    ...openTmsFormat,
    map: toFeature
  }
})
