import { Schema } from "effect"
import { type FeatureObservation, NO_WINDOW } from "../../shared/domain/Feature.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { validLatLng } from "../../shared/geo/representativePoint.js"
import { Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"

/**
 * OCPI 2.x Locations (a Location, an array of them, or an OCPI response `{data: [...]}`) as
 * `ev_charging` features with the live-availability keys of SPEC §2.2. A refill point is an
 * EVSE (one vehicle at a time); REMOVED and PLANNED ones are only counted in `excluded_points`.
 */

const Connector = Schema.Struct({
  id: Schema.optional(Schema.Union(Schema.String, Schema.Number)),
  standard: Lenient.optString,
  format: Lenient.optString,
  power_type: Lenient.optString,
  max_voltage: Lenient.optNumber,
  max_amperage: Lenient.optNumber,
  max_electric_power: Lenient.optNumber
})

const Evse = Schema.Struct({
  uid: Schema.String,
  evse_id: Lenient.optString,
  status: Schema.String,
  connectors: Schema.optional(Schema.NullOr(Schema.Array(Connector))),
  last_updated: Lenient.optString
})

const Location = Schema.Struct({
  id: Schema.NonEmptyTrimmedString,
  country_code: Schema.String,
  party_id: Schema.String,
  publish: Lenient.optBoolean,
  name: Lenient.optString,
  address: Lenient.optString,
  city: Lenient.optString,
  postal_code: Lenient.optString,
  coordinates: Schema.Struct({ latitude: Schema.String, longitude: Schema.String }),
  parking_type: Lenient.optString,
  evses: Schema.optional(Schema.NullOr(Schema.Array(Evse))),
  operator: Schema.optional(Schema.NullOr(Schema.Struct({ name: Lenient.optString }))),
  opening_times: Schema.optional(Schema.NullOr(Schema.Struct({ twentyfourseven: Lenient.optBoolean }))),
  last_updated: Lenient.optString
})
type Location = typeof Location.Type

const Envelope = Schema.Union(
  Schema.Struct({ data: Schema.Array(Schema.Unknown) }),
  Schema.Array(Schema.Unknown),
  Schema.Struct(
    { id: Schema.String, evses: Schema.optional(Schema.Unknown) },
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  )
)

type PointStatus = "available" | "occupied" | "unavailable" | "unknown" | "excluded"

const STATUS: Record<string, PointStatus> = {
  AVAILABLE: "available",
  CHARGING: "occupied",
  BLOCKED: "occupied",
  RESERVED: "occupied",
  INOPERATIVE: "unavailable",
  OUTOFORDER: "unavailable",
  UNKNOWN: "unknown",
  REMOVED: "excluded",
  PLANNED: "excluded"
}

const kw = (c: typeof Connector.Type): number | null => {
  if (c.max_electric_power) return c.max_electric_power / 1000
  if (!c.max_voltage || !c.max_amperage) return null
  const phases = c.power_type === "AC_3_PHASE" ? 3 : 1
  return Math.round((c.max_voltage * c.max_amperage * phases) / 100) / 10
}

/** The site rollup of SPEC §2.2 rule 1: unknown when no refill point had a usable status. */
export const rollup = (statuses: ReadonlyArray<PointStatus>) => {
  const count = (s: PointStatus) => statuses.filter((x) => x === s).length
  const available = count("available")
  const occupied = count("occupied")
  const unavailable = count("unavailable")
  const excluded = count("excluded")
  const reported = statuses.length - excluded
  const status = available > 0 ? "available" : occupied > 0 ? "full" : unavailable > 0 ? "out_of_service" : "unknown"
  return {
    availability_status: status,
    available_points: available,
    occupied_points: occupied,
    unavailable_points: unavailable,
    reported_points: reported,
    ...(excluded > 0 ? { excluded_points: excluded } : {}),
    is_available: available > 0
  }
}

const toFeature =
  (jurisdiction: string) =>
  (l: Location): FeatureObservation | string => {
    const latitude = Number(l.coordinates.latitude)
    const longitude = Number(l.coordinates.longitude)
    if (!validLatLng(latitude, longitude))
      return `invalid coordinates ${l.coordinates.latitude},${l.coordinates.longitude}`
    const evses = l.evses ?? []
    const points = evses.map((e) => ({
      e,
      status: STATUS[e.status.toUpperCase()] ?? "unknown",
      connectors: e.connectors ?? []
    }))
    const live = points.filter((p) => p.status !== "excluded")
    const connectors = live.flatMap((p) => p.connectors)
    const powers = connectors.map(kw).filter((x): x is number => x !== null)
    const observed = evses
      .map((e) => toIso(e.last_updated))
      .filter((x): x is string => x !== null)
      .sort()
      .pop()
    const network = l.operator?.name ?? `${l.country_code}-${l.party_id}`
    return {
      source_id: `${l.country_code}*${l.party_id}*${l.id}`,
      jurisdiction,
      feature_type: "ev_charging",
      name: l.name ?? l.address ?? l.id,
      description: [l.address, l.city, l.postal_code].filter(Boolean).join(", "),
      latitude,
      longitude,
      geometry: null,
      road_name: null,
      direction: null,
      is_active: l.publish !== false && live.length > 0,
      ...NO_WINDOW,
      properties: {
        network,
        connector_types: [...new Set(connectors.map((c) => c.standard).filter((s): s is string => !!s))],
        ...(powers.length > 0 ? { max_kw: Math.max(...powers) } : {}),
        port_count: live.length,
        access: l.publish === false ? "private" : "public",
        ...(l.parking_type ? { parking_type: l.parking_type.toLowerCase() } : {}),
        ...(l.opening_times?.twentyfourseven === true ? { opening_hours: "24/7" } : {}),
        // live availability only when the feed reported refill points at all (absent is never zero)
        ...(points.length > 0
          ? {
              ...rollup(points.map((p) => p.status)),
              availability_source: `ocpi:${l.country_code}-${l.party_id}`,
              ...(observed ? { availability_updated_at: observed } : {}),
              refill_points: live.map((p) => ({
                id: p.e.evse_id ?? p.e.uid,
                status: p.status,
                connectors: p.connectors.map((c) => ({
                  standard: c.standard ?? null,
                  format: c.format?.toLowerCase() ?? null,
                  power_type: c.power_type ?? null,
                  max_kw: kw(c)
                }))
              }))
            }
          : {})
      },
      has_details: false
    }
  }

export const ocpi: FeatureAdapter = defineAdapter({
  id: "ocpi",
  revision: 1,
  kind: "features",
  formats: ["ocpi-2.2-locations", "ocpi-2.3-locations"],
  yields: ["ev_charging"],
  attribution: null,
  records: {
    envelope: Envelope,
    record: Location,
    map: toFeature,
    items: (e) => (Array.isArray(e) ? e : "data" in e && Array.isArray(e.data) ? e.data : [e]),
    idOf: (raw) => {
      const r = raw as { country_code?: unknown; party_id?: unknown; id?: unknown } | null
      return r && typeof r.id === "string" ? `${String(r.country_code)}*${String(r.party_id)}*${r.id}` : undefined
    }
  }
})
