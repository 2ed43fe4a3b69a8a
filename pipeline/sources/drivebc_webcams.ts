import { FEATURE_DETAILS } from "../../shared/sources/featureDetails.js"
import { Schema } from "effect"
import { type FeatureObservation, NO_WINDOW } from "../../shared/domain/Feature.js"
import { directionOf } from "../../shared/domain/Road.js"
import { validLatLng } from "../../shared/geo/representativePoint.js"
import { DRIVEBC_CREDIT } from "./lib/credits.js"
import { field, Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"

/**
 * DriveBC webcam API (`/webcam/api/v1/webcams`): `{webcams: [...]}` or one webcam object.
 * Image statistics change with every picture, so only stable facts are published: a camera's
 * `last_updated` moves when its name, place, links, on/off state or staleness flags change.
 */

const Webcam = Schema.Struct({
  id: Lenient.id,
  isOn: Schema.Boolean,
  shouldAppear: Lenient.optBoolean,
  camName: Schema.String,
  caption: Lenient.optString,
  orientation: Lenient.optString,
  highway: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        number: Schema.optional(Schema.Union(Schema.Number, Schema.String)),
        locationDescription: Lenient.optString
      })
    )
  ),
  region: Schema.optional(Schema.NullOr(Schema.Struct({ name: Lenient.optString }))),
  location: Schema.Struct({ latitude: Schema.Number, longitude: Schema.Number, elevation: Lenient.optNumber }),
  links: Schema.optional(
    Schema.NullOr(
      Schema.Struct({
        imageDisplay: Lenient.optString,
        imageThumbnail: Lenient.optString,
        replayTheDay: Lenient.optString
      })
    )
  ),
  imageStats: Schema.optional(
    Schema.NullOr(Schema.Struct({ markedStale: Lenient.optBoolean, markedDelayed: Lenient.optBoolean }))
  )
})
type Webcam = typeof Webcam.Type

const Envelope = Schema.Union(
  Schema.Struct({ webcams: Schema.Array(Schema.Unknown) }),
  // one webcam on its own: keep every key, the record schema reads it next
  Schema.Struct(
    { id: Schema.Unknown, camName: Schema.String },
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  )
)

const compact = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ""))

const toFeature =
  (jurisdiction: string) =>
  (w: Webcam): FeatureObservation | string => {
    const { latitude, longitude, elevation } = w.location
    if (!validLatLng(latitude, longitude)) return `invalid coordinates ${latitude},${longitude}`
    const orientation = w.orientation && w.orientation !== "NULL" ? w.orientation : null
    const highway = w.highway?.number !== undefined && w.highway?.number !== "" ? `Highway ${w.highway.number}` : null
    return {
      source_id: String(w.id),
      jurisdiction,
      feature_type: "cameras",
      name: w.camName,
      description: w.caption ?? "",
      latitude,
      longitude,
      geometry: null,
      road_name: highway,
      direction: directionOf(orientation),
      is_active: w.isOn && w.shouldAppear !== false,
      ...NO_WINDOW,
      properties: compact({
        url: w.links?.imageDisplay,
        thumbnail_url: w.links?.imageThumbnail,
        replay_url: w.links?.replayTheDay,
        orientation,
        elevation_m: elevation,
        region: w.region?.name,
        location_description: w.highway?.locationDescription,
        is_stale: w.imageStats?.markedStale ?? undefined,
        is_delayed: w.imageStats?.markedDelayed ?? undefined
      }),
      has_details: true
    }
  }

export const drivebc_webcams: FeatureAdapter = defineAdapter({
  id: "drivebc_webcams",
  revision: 1,
  kind: "features",
  formats: ["drivebc-webcam-api-v1"],
  yields: ["cameras"],
  attribution: DRIVEBC_CREDIT,
  records: {
    envelope: Envelope,
    items: (e) => ("webcams" in e && Array.isArray(e.webcams) ? e.webcams : [e]),
    record: Webcam,
    map: toFeature,
    idOf: field("id")
  },
  detail: FEATURE_DETAILS.get("drivebc_webcams")
})
