import { Either, Schema } from "effect"
import { causeFromText } from "../../shared/domain/Cause.js"
import type { EventObservation, EventType, Severity } from "../../shared/domain/Event.js"
import { buildTitle } from "../../shared/domain/eventTitle.js"
import { directionOf, roadClassOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { defineAdapter, type EventAdapter } from "./Adapter.js"
import { many, readXml, text } from "./lib/xml.js"

/**
 * iCone smart work zone incidents (XML `<incidents><incident id=…>`): a work zone or hazard
 * marked by connected arrow boards, cones and radar sensors, its extent a `lat,lng,…` polyline.
 * Times are UTC as iCone writes them. The devices are summarised in `metadata.devices`.
 */

const Incident = Schema.Struct(
  { "@_id": Schema.NonEmptyTrimmedString },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
type Incident = typeof Incident.Type

const TYPES: Record<string, EventType> = {
  CONSTRUCTION: "construction",
  ACCIDENT: "incident",
  HAZARD: "incident",
  JAM: "advisory",
  ROAD_CLOSED: "closure",
  WEATHERHAZARD: "weather",
  POLICE: "incident",
  EVENT: "special_event"
}

/** "39.97,-104.98,39.98,-104.97" → [[lng, lat], …]; null when unreadable */
const polyline = (s: string | null): Array<[number, number]> | null => {
  if (s === null) return null
  const n = s
    .split(/[,\s]+/)
    .filter((x) => x !== "")
    .map(Number)
  if (n.length < 2 || n.length % 2 !== 0 || n.some((x) => !Number.isFinite(x))) return null
  const out: Array<[number, number]> = []
  for (let i = 0; i < n.length; i += 2) {
    const [lat, lng] = [n[i], n[i + 1]]
    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null
    const last = out[out.length - 1]
    if (!last || last[0] !== lng || last[1] !== lat) out.push([lng, lat])
  }
  return out
}

/** "I-75 N" → road "I-75", northbound */
const streetOf = (street: string | null) => {
  if (street === null) return { road: null, direction: null }
  const m = /^(.*?)\s+(N|S|E|W|NB|SB|EB|WB)$/i.exec(street)
  return m ? { road: m[1], direction: directionOf(m[2]) } : { road: street, direction: null }
}

const devicesOf = (i: Incident) =>
  [...many(i.display).map((d) => ({ kind: "display", d })), ...many(i.sensor).map((d) => ({ kind: "sensor", d }))].map(
    ({ kind, d }) => {
      const o = (d ?? {}) as Record<string, unknown>
      const states = many(o.status)
        .map((s) => text((s as Record<string, unknown>)["@_state"]))
        .filter((s) => s !== null)
      return { kind, type: text(o["@_type"]), id: text(o["@_id"]), ...(states.length > 0 ? { states } : {}) }
    }
  )

const toEvent =
  (jurisdiction: string) =>
  (i: Incident): EventObservation | string => {
    const kind = (text(i.type) ?? "").toUpperCase()
    const subtype = text(i.subtype)
    const type0 = TYPES[kind]
    if (!type0) return `unknown incident type ${kind || "(none)"}`
    const points = polyline(text((i.location as Record<string, unknown> | undefined)?.polyline))
    if (points === null || points.length === 0) return "no readable location polyline"
    const geometry =
      points.length === 1 ? { type: "Point", coordinates: points[0] } : { type: "LineString", coordinates: points }
    const mid = points[Math.floor((points.length - 1) / 2)]
    const location = (i.location ?? {}) as Record<string, unknown>
    const { road, direction } = streetOf(text(location.street))
    const both = text(location.direction)?.toUpperCase() === "BOTH_DIRECTIONS"
    const closed = kind === "ROAD_CLOSED" || /ROAD_CLOSED/i.test(subtype ?? "")
    const laneClosed = /LANE_CLOSED/i.test(subtype ?? "")
    const type: EventType = closed ? "closure" : type0
    // iCone gives no severity: this is the closure facts read as the editor's table reads them
    const severity: Severity = closed ? "major" : laneClosed ? "moderate" : "minor"
    // "19-1245: Roadwork between MP 40 and MP 48 [iCone]": the project number and the tag go
    const said = (text(i.description) ?? "")
      .replace(/\s*\[iCone\]\s*$/i, "")
      .replace(/^[\w-]*\d[\w-]*:\s*/, "")
      .trim()
    const what = said || (type0 === "construction" ? "Roadwork" : kind.toLowerCase().replace(/_/g, " "))
    return {
      source_id: i["@_id"].trim(),
      jurisdiction,
      type,
      sub_type: subtype?.toLowerCase() ?? null,
      cause: causeFromText(type0 === "construction" ? "roadwork" : null, subtype, said),
      severity,
      quality_flags: ["severity_inferred"],
      status: "active", // an incident that ends leaves the feed
      title: buildTitle({ what, road, direction: direction ?? (both ? "both" : null) }),
      description: text(i.description)?.replace(/\s*\[iCone\]\s*$/i, "") ?? "",
      latitude: mid[1],
      longitude: mid[0],
      geometry,
      affected_roads: road ? [road] : [],
      direction: direction ?? (both ? "both" : null),
      lanes_affected: closed ? "all lanes closed" : laneClosed ? "lane closed" : null,
      start_time: toIso(text(i.starttime)),
      end_time: toIso(text(i.endtime)),
      estimated_start_time: null,
      estimated_end_time: null,
      source_created_at: toIso(text(i.creationtime)),
      source_updated_at: toIso(text(i.updatetime)),
      road_class: roadClassOf(road),
      metadata: { icone_type: kind, icone_subtype: subtype, devices: devicesOf(i) }
    }
  }

export const icone: EventAdapter = defineAdapter({
  id: "icone",
  revision: 1,
  kind: "events",
  formats: ["icone-incidents-xml"],
  yields: ["construction", "incident", "advisory", "closure", "weather", "special_event"],
  attribution: null,
  records: {
    read: (payload) =>
      Either.flatMap(readXml(payload), (doc) => {
        if (!("incidents" in doc)) return Either.left("payload is not in the expected format: no <incidents> root")
        const root = doc.incidents
        return Either.right({
          items: typeof root === "object" && root !== null ? many((root as Record<string, unknown>).incident) : []
        })
      }),
    envelope: Schema.Struct({ items: Schema.Array(Schema.Unknown) }),
    items: (e) => e.items,
    record: Incident,
    map: toEvent,
    idOf: (raw) => text((raw as Record<string, unknown> | null)?.["@_id"]) ?? undefined
  }
})
