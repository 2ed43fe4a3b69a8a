import { Schema } from "effect"
import { type FeatureObservation, NO_WINDOW } from "../../shared/domain/Feature.js"
import { directionOf } from "../../shared/domain/Road.js"
import { representativePoint } from "../../shared/geo/representativePoint.js"
import { field, Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"

/**
 * WZDx 4.0 / TDx RoadRestrictionFeed: persistent restrictions on a stretch of road. A record
 * becomes one feature of its most constraining kind — a height limit is a `bridge_clearances`
 * feature, a weight or axle limit a `weight_restrictions` one, anything else (no trucks,
 * width, length) a `truck_restrictions` one — with every restriction it carries in
 * `properties.restrictions` (converted to metres and short tons).
 */

const Restriction = Schema.Struct({ type: Schema.String, value: Lenient.optNumber, unit: Lenient.optString })

const Feature = Schema.Struct({
  id: Lenient.id,
  geometry: Schema.Struct({ type: Schema.String, coordinates: Schema.Array(Schema.Unknown) }),
  properties: Schema.Struct({
    core_details: Schema.Struct({
      event_type: Schema.Literal("restriction"),
      road_names: Schema.Array(Schema.String),
      direction: Lenient.optString,
      name: Lenient.optString,
      description: Lenient.optString
    }),
    restrictions: Schema.optional(Schema.NullOr(Schema.Array(Restriction))),
    lanes: Schema.optional(
      Schema.NullOr(
        Schema.Array(
          Schema.Struct({
            order: Lenient.optNumber,
            restrictions: Schema.optional(Schema.NullOr(Schema.Array(Restriction)))
          })
        )
      )
    )
  })
})
type Feature = typeof Feature.Type

const Envelope = Schema.Struct({ type: Schema.Literal("FeatureCollection"), features: Schema.Array(Schema.Unknown) })

const METRES: Record<string, number> = { feet: 0.3048, inches: 0.0254, cm: 0.01, m: 1, meters: 1, metres: 1 }
const SHORT_TONS: Record<string, number> = { tons: 1, pounds: 1 / 2000, kg: 1 / 907.18474, tonnes: 1.10231 }

const round2 = (n: number) => Math.round(n * 100) / 100

interface Normalized {
  type: string
  value: number | null
  unit: string | null
  lane: number | null
}

const normalize = (r: typeof Restriction.Type, lane: number | null): Normalized => {
  const unit = r.unit?.toLowerCase() ?? null
  if (r.value !== undefined && r.value !== null && unit) {
    if (METRES[unit]) return { type: r.type, value: round2(r.value * METRES[unit]), unit: "m", lane }
    if (SHORT_TONS[unit]) return { type: r.type, value: round2(r.value * SHORT_TONS[unit]), unit: "tons", lane }
  }
  return { type: r.type, value: r.value ?? null, unit, lane }
}

const minOf = (rs: ReadonlyArray<Normalized>, types: ReadonlyArray<string>) => {
  const v = rs.filter((r) => types.includes(r.type) && r.value !== null).map((r) => r.value as number)
  return v.length > 0 ? Math.min(...v) : undefined
}

const toFeature =
  (jurisdiction: string) =>
  (f: Feature): FeatureObservation | string => {
    const point = representativePoint({ type: f.geometry.type, coordinates: f.geometry.coordinates })
    if (!point) return `no usable coordinates in ${f.geometry.type} geometry`
    const core = f.properties.core_details
    const all = [
      ...(f.properties.restrictions ?? []).map((r) => normalize(r, null)),
      ...(f.properties.lanes ?? []).flatMap((l) => (l.restrictions ?? []).map((r) => normalize(r, l.order ?? null)))
    ]
    if (all.length === 0) return "restriction record without restrictions"
    const height = minOf(all, ["reduced-height"])
    const weight = minOf(all, ["reduced-weight", "axle-load-limit", "gross-weight-limit"])
    const featureType =
      height !== undefined ? "bridge_clearances" : weight !== undefined ? "weight_restrictions" : "truck_restrictions"
    const road = core.road_names[core.road_names.length - 1] ?? null
    const text = all
      .filter((r) => r.lane === null)
      .map((r) => `${r.type}${r.value !== null ? ` ${r.value}${r.unit ? ` ${r.unit}` : ""}` : ""}`)
      .join("; ")
    return {
      source_id: String(f.id),
      jurisdiction,
      feature_type: featureType,
      name:
        core.name ?? `${featureType === "bridge_clearances" ? "Low clearance" : "Restriction"} on ${road ?? "road"}`,
      description: core.description ?? text,
      latitude: point.latitude,
      longitude: point.longitude,
      geometry: f.geometry.type === "Point" ? null : { type: f.geometry.type, coordinates: f.geometry.coordinates },
      road_name: road,
      direction: directionOf(core.direction),
      is_active: true,
      ...NO_WINDOW,
      properties: {
        ...(height !== undefined ? { min_vertical_clearance_m: height } : {}),
        ...(weight !== undefined ? { weight_limit_tons: weight, restriction_type: "posted" } : {}),
        ...(featureType === "truck_restrictions" ? { restriction: text } : {}),
        restrictions: all,
        road_names: core.road_names
      },
      has_details: false
    }
  }

export const wzdx_restrictions: FeatureAdapter = defineAdapter({
  id: "wzdx_restrictions",
  revision: 1,
  kind: "features",
  formats: ["wzdx-4.0-roadrestrictionfeed", "tdx-1.x-roadrestrictionfeed"],
  yields: ["bridge_clearances", "weight_restrictions", "truck_restrictions"],
  attribution: null,
  records: {
    envelope: Envelope,
    items: (e) => e.features,
    record: Feature,
    map: toFeature,
    idOf: field("id")
  }
})
