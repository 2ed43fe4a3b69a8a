import { Schema } from "effect"
import { Lenient } from "../Adapter.js"

/**
 * The raw CDOT OpenTMS record (a GeoJSON Feature of a planned event or an incident) and how a
 * payload carries it: one Feature, an array, or a FeatureCollection. `cdot_opentms` maps it to
 * events, `cdot_planned_events` to time-bounded road features.
 */

const LaneImpact = Schema.Struct({
  direction: Lenient.optString,
  laneCount: Lenient.optNumber,
  laneClosures: Lenient.optString
})

export const OpenTmsFeature = Schema.Struct({
  type: Schema.Literal("Feature"),
  geometry: Schema.Struct({ type: Schema.String, coordinates: Schema.Array(Schema.Unknown) }),
  properties: Schema.Struct({
    id: Schema.NonEmptyTrimmedString,
    type: Schema.String,
    name: Lenient.optString,
    category: Lenient.optString,
    status: Lenient.optString,
    severity: Lenient.optString,
    responseLevel: Lenient.optString,
    routeName: Lenient.optString,
    direction: Lenient.optString,
    startTime: Lenient.optString,
    clearTime: Lenient.optString,
    lastUpdated: Lenient.optString,
    startMarker: Lenient.optNumber,
    endMarker: Lenient.optNumber,
    travelerInformationMessage: Lenient.optString,
    isOversizedLoadsProhibited: Lenient.optBoolean,
    widthRestriction: Lenient.optNumber,
    injuries: Lenient.optNumber,
    fatalities: Lenient.optNumber,
    vehiclesInvolved: Lenient.optNumber,
    additionalImpacts: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
    jurisdictions: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
    schedule: Schema.optional(
      Schema.NullOr(Schema.Array(Schema.Struct({ startTime: Lenient.optString, endTime: Lenient.optString })))
    ),
    laneImpacts: Schema.optional(Schema.NullOr(Schema.Array(LaneImpact)))
  })
})
export type OpenTmsFeature = typeof OpenTmsFeature.Type

const Envelope = Schema.Union(
  Schema.Array(Schema.Unknown),
  Schema.Struct({ type: Schema.Literal("FeatureCollection"), features: Schema.Array(Schema.Unknown) }),
  Schema.Struct({ type: Schema.Literal("Feature") }, Schema.Record({ key: Schema.String, value: Schema.Unknown }))
)

/** The envelope, record and id parts of an OpenTMS adapter's records. */
export const openTmsFormat = {
  envelope: Envelope,
  record: OpenTmsFeature,
  items: (e: typeof Envelope.Type): ReadonlyArray<unknown> =>
    Array.isArray(e) ? e : "features" in e && Array.isArray(e.features) ? e.features : [e],
  idOf: (raw: unknown) => {
    const id = (raw as { properties?: { id?: unknown } } | null)?.properties?.id
    return typeof id === "string" && id.trim() !== "" ? id : undefined
  }
}

/** "I-70W" → "I-70": OpenTMS appends the travel direction to the route. */
export const routeOf = (r: string | null | undefined) =>
  r ? r.trim().replace(/^([A-Z]+-\d+[A-Z]?)[NSEW]$/, "$1") : null

/** Bitmask string of closed lanes ("0" = none closed) → count of closed lanes. */
export const closedLanes = (mask: string | null | undefined) =>
  mask && /^[01]+$/.test(mask) ? [...mask].filter((c) => c === "1").length : undefined
