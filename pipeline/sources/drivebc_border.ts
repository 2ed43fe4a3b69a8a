import { Schema } from "effect"
import { type FeatureObservation, NO_WINDOW } from "../../shared/domain/Feature.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { validLatLng } from "../../shared/geo/representativePoint.js"
import { DRIVEBC_CREDIT } from "./lib/credits.js"
import { defineAdapter, type FeatureAdapter } from "./Adapter.js"

/**
 * DriveBC border crossings and their lane delays (the backend's export: `border.bordercrossing`
 * and `border.bordercrossinglanes` records). A crossing becomes a `border_crossings` feature
 * with one entry per lane; a lane without a measured delay has no `delay_minutes` (never 0).
 */

const Lane = Schema.Struct({
  lane_type: Schema.String,
  lane_direction: Schema.String,
  delay_minutes: Schema.optional(Schema.NullOr(Schema.Number)),
  last_updated: Schema.optional(Schema.NullOr(Schema.String))
})

const Crossing = Schema.Struct({
  pk: Schema.Number,
  fields: Schema.Struct({
    name: Schema.String,
    location: Schema.String,
    schedule_url: Schema.optional(Schema.NullOr(Schema.String))
  }),
  lanes: Schema.Array(Lane)
})
type Crossing = typeof Crossing.Type

const Envelope = Schema.Array(
  Schema.Struct({
    model: Schema.String,
    pk: Schema.Number,
    fields: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  })
)

/** Crossings with their lanes attached, so a delay change is a change of the crossing. */
const join = (records: typeof Envelope.Type): ReadonlyArray<unknown> => {
  const lanes = new Map<number, Array<unknown>>()
  for (const r of records) {
    if (r.model !== "border.bordercrossinglanes") continue
    const crossing = Number(r.fields.border_crossing)
    lanes.set(crossing, [...(lanes.get(crossing) ?? []), r.fields])
  }
  return records
    .filter((r) => r.model === "border.bordercrossing")
    .map((r) => ({ pk: r.pk, fields: r.fields, lanes: lanes.get(r.pk) ?? [] }))
}

const WKT_POINT = /POINT\s*\(\s*(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s*\)/i

const toFeature =
  (jurisdiction: string) =>
  (c: Crossing): FeatureObservation | string => {
    const m = WKT_POINT.exec(c.fields.location)
    if (!m) return `unreadable location ${c.fields.location}`
    const [lng, lat] = [Number(m[1]), Number(m[2])]
    if (!validLatLng(lat, lng)) return `invalid coordinates ${lng},${lat}`
    const lanes = c.lanes.map((l) => ({
      lane_type: l.lane_type.toLowerCase(),
      direction: l.lane_direction.toLowerCase(),
      ...(l.delay_minutes !== undefined && l.delay_minutes !== null && l.delay_minutes >= 0
        ? { delay_minutes: l.delay_minutes }
        : {}),
      ...(toIso(l.last_updated) ? { observed_at: toIso(l.last_updated) } : {})
    }))
    return {
      source_id: String(c.pk),
      jurisdiction,
      feature_type: "border_crossings",
      name: c.fields.name,
      description: "",
      latitude: lat,
      longitude: lng,
      geometry: null,
      road_name: null,
      direction: null,
      is_active: true,
      ...NO_WINDOW,
      properties: {
        lanes,
        ...(c.fields.schedule_url ? { schedule_url: c.fields.schedule_url } : {})
      },
      has_details: false
    }
  }

export const drivebc_border: FeatureAdapter = defineAdapter({
  id: "drivebc_border",
  revision: 1,
  kind: "features",
  formats: ["drivebc-border-crossings"],
  yields: ["border_crossings"],
  attribution: DRIVEBC_CREDIT,
  records: {
    envelope: Envelope,
    items: join,
    record: Crossing,
    map: toFeature,
    idOf: (raw) => {
      const pk = (raw as { pk?: unknown } | null)?.pk
      return typeof pk === "number" ? String(pk) : undefined
    }
  }
})
