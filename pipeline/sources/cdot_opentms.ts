import { causeFromText } from "../../shared/domain/Cause.js"
import type { EventObservation, EventType, Severity } from "../../shared/domain/Event.js"
import { milepost, readableTitle } from "../../shared/domain/eventTitle.js"
import { directionOf, roadClassOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { representativePoint } from "../../shared/geo/representativePoint.js"
import { defineAdapter, type EventAdapter } from "./Adapter.js"
import { closedLanes, openTmsFormat, type OpenTmsFeature, routeOf } from "./lib/opentmsRecord.js"

/**
 * Colorado DOT OpenTMS planned events and incidents as events (GeoJSON Features: one, an
 * array, or a FeatureCollection). The geometry is kept as OpenTMS gives it (a MultiPoint of a
 * stretch's two ends). The free-text `type` is mapped by keyword and kept in metadata; chain-law
 * codes are truck restrictions. Times are UTC instants with the offset OpenTMS wrote.
 * (`cdot_planned_events` reads the same planned events as time-bounded road features.)
 */

const typeOf = (t: string, category: string | null | undefined): EventType =>
  /chain law|traction law|restriction|permit|oversize/i.test(t)
    ? "restriction"
    : /crash|accident|collision|rollover|disabled|stalled|debris|fire|spill|animal/i.test(t)
      ? "incident"
      : /construct|maint|install|resurfac|paving|repair|roadwork|road work|striping|bridge|wall|replace/i.test(t) ||
          /construction/i.test(category ?? "")
        ? "construction"
        : /event|concert|parade|game|race|festival|marathon/i.test(t)
          ? "special_event"
          : /snow|ice|fog|wind|weather|avalanche|flood/i.test(t)
            ? "weather"
            : "advisory"

const SEVERITIES: Record<string, Severity> = {
  minor: "minor",
  moderate: "moderate",
  intermediate: "moderate",
  major: "major",
  critical: "critical"
}
const ENDED = /cleared|closed|ended|inactive|cancel/i

const toEvent =
  (jurisdiction: string) =>
  (f: OpenTmsFeature): EventObservation | string => {
    const p = f.properties
    const point = representativePoint({ type: f.geometry.type, coordinates: f.geometry.coordinates })
    if (!point) return `no usable coordinates in ${f.geometry.type} geometry`
    const message =
      p.travelerInformationMessage
        ?.replace(/<br\s*\/?>/gi, " ")
        .replace(/<[^>]*>/g, "")
        .trim() ?? ""
    const lanes = (p.laneImpacts ?? []).flatMap((l) => {
      const closed = closedLanes(l.laneClosures)
      return closed ? [{ direction: l.direction ?? null, closed, of: l.laneCount ?? null }] : []
    })
    const allClosed =
      (p.laneImpacts ?? []).length > 0 &&
      (p.laneImpacts ?? []).every(
        (l) => l.laneCount != null && l.laneCount > 0 && closedLanes(l.laneClosures) === l.laneCount
      )
    const roadClosed = allClosed || /\broad closed\b|\bclosed in both directions\b/i.test(message)
    const type: EventType = roadClosed ? "closure" : typeOf(p.type, p.category)
    const road = routeOf(p.routeName)
    const direction = directionOf(p.direction)
    // "Between Exit 129: Bair Ranch … and Exit 133: Dotsero … from Mile Point 131 …"
    const between = /^Between (.+?) and (.+?)(?: \(.*?\))? from Mile Point/i.exec(message)
    const from = between?.[1] ?? milepost(p.startMarker, "mi")
    const to = between?.[2] ?? milepost(p.endMarker, "mi")
    const name = p.name?.replace(/-\d+$/, "").trim() || null
    const schedule = (p.schedule ?? []).map((s) => ({ start: toIso(s.startTime), end: toIso(s.endTime) }))
    const severity: Severity = roadClosed
      ? "major"
      : (SEVERITIES[(p.severity ?? p.responseLevel ?? "").toLowerCase()] ?? "minor")
    return {
      source_id: p.id,
      jurisdiction,
      type,
      sub_type: p.type.toLowerCase(),
      cause: causeFromText(p.type, type === "construction" ? "roadwork" : null, message),
      severity,
      ...(SEVERITIES[(p.severity ?? p.responseLevel ?? "").toLowerCase()]
        ? {}
        : { quality_flags: ["severity_inferred"] }),
      status: ENDED.test(p.status ?? "") ? "archived" : "active",
      title: readableTitle(name, { what: p.type, road, direction, from, to }),
      description: message,
      latitude: point.latitude,
      longitude: point.longitude,
      geometry: { type: f.geometry.type, coordinates: f.geometry.coordinates },
      affected_roads: road ? [road] : [],
      direction,
      lanes_affected: roadClosed
        ? "all lanes closed"
        : lanes.length > 0
          ? lanes.map((l) => `${l.direction ?? "?"}: ${l.closed}${l.of ? ` of ${l.of}` : ""} lanes closed`).join("; ")
          : (p.additionalImpacts ?? []).join("; ") || null,
      start_time: toIso(p.startTime) ?? schedule[0]?.start ?? null,
      end_time: toIso(p.clearTime) ?? schedule[schedule.length - 1]?.end ?? null,
      estimated_start_time: null,
      estimated_end_time: null,
      source_created_at: null,
      source_updated_at: toIso(p.lastUpdated),
      road_class: roadClassOf(road),
      metadata: {
        opentms_type: p.type,
        category: p.category ?? null,
        route_name: p.routeName ?? null,
        upstream_name: p.name ?? null,
        from_milepost: p.startMarker ?? null,
        to_milepost: p.endMarker ?? null,
        counties: p.jurisdictions ?? [],
        ...(schedule.length > 0 ? { schedule } : {}),
        ...(p.isOversizedLoadsProhibited ? { oversize_loads_prohibited: true } : {}),
        // OpenTMS writes the width limit in centimetres (305 for 10'0")
        ...(p.widthRestriction ? { width_limit_m: p.widthRestriction / 100 } : {}),
        ...(p.injuries != null || p.fatalities != null
          ? {
              injuries: p.injuries ?? null,
              fatalities: p.fatalities ?? null,
              vehicles_involved: p.vehiclesInvolved ?? null
            }
          : {})
      }
    }
  }

export const cdot_opentms: EventAdapter = defineAdapter({
  id: "cdot_opentms",
  revision: 1,
  kind: "events",
  formats: ["cdot-opentms-planned-event", "cdot-opentms-incident"],
  yields: ["construction", "incident", "restriction", "special_event", "weather", "advisory", "closure"],
  attribution: null,
  records: {
    ...openTmsFormat,
    map: toEvent
  }
})
