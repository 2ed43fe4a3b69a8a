import { Schema } from "effect"
import { type FeatureObservation, NO_WINDOW } from "../../shared/domain/Feature.js"
import { directionOf } from "../../shared/domain/Road.js"
import { representativePoint } from "../../shared/geo/representativePoint.js"
import { Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"

/** Open511 v1 traffic cameras (`{cameras: [...]}`): the first image is the camera's `url`, all are `views`. */

const Camera = Schema.Struct({
  id: Schema.NonEmptyTrimmedString,
  name: Schema.String,
  description: Lenient.optString,
  orientation: Lenient.optString,
  media_files: Schema.optional(
    Schema.NullOr(
      Schema.Array(
        Schema.Struct({
          url: Schema.String,
          type: Lenient.optString,
          refresh_interval: Lenient.optNumber
        })
      )
    )
  ),
  roads: Schema.optional(
    Schema.NullOr(Schema.Array(Schema.Struct({ name: Lenient.optString, direction: Lenient.optString })))
  ),
  geography: Schema.Struct({ type: Schema.String, coordinates: Schema.Array(Schema.Unknown) })
})
type Camera = typeof Camera.Type

const Envelope = Schema.Struct({ cameras: Schema.Array(Schema.Unknown) })

const localId = (id: string) => (id.includes("/") ? id.slice(id.indexOf("/") + 1) : id)

const toFeature =
  (jurisdiction: string) =>
  (c: Camera): FeatureObservation | string => {
    const point = representativePoint({ type: c.geography.type, coordinates: c.geography.coordinates })
    if (!point) return "no usable geography"
    const media = c.media_files ?? []
    const road = c.roads?.[0]
    return {
      source_id: localId(c.id),
      jurisdiction,
      feature_type: "cameras",
      name: c.name,
      description: c.description ?? "",
      latitude: point.latitude,
      longitude: point.longitude,
      geometry: null,
      road_name: road?.name ?? null,
      direction: directionOf(road?.direction ?? c.orientation),
      is_active: media.length > 0,
      ...NO_WINDOW,
      properties: {
        ...(media[0] ? { url: media[0].url } : {}),
        ...(media[0]?.refresh_interval ? { refresh_interval_s: media[0].refresh_interval } : {}),
        ...(c.orientation ? { orientation: c.orientation } : {}),
        ...(media.length > 0
          ? { views: media.map((m, i) => ({ name: `${c.name}${media.length > 1 ? ` (${i + 1})` : ""}`, url: m.url })) }
          : {})
      },
      has_details: false
    }
  }

export const open511_cameras: FeatureAdapter = defineAdapter({
  id: "open511_cameras",
  revision: 1,
  kind: "features",
  formats: ["open511-1.0-cameras-json"],
  yields: ["cameras"],
  attribution: null,
  records: {
    envelope: Envelope,
    items: (e) => e.cameras,
    record: Camera,
    map: toFeature,
    idOf: (raw) => {
      const id = (raw as { id?: unknown } | null)?.id
      return typeof id === "string" ? localId(id) : undefined
    }
  }
})
