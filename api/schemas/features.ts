import { Schema } from "effect"
import {
  ApiWarning,
  Count,
  DateTime,
  FeatureCollectionOf,
  Geometry,
  NullableDateTime,
  NullableText,
  OpenObject,
  Paged,
  SourceCredit,
  Texts
} from "./common.js"

const fields = {
  id: Schema.String.annotations({ description: "Stable id: ft_ + 22 characters" }),
  source: Schema.String,
  source_id: Schema.String,
  jurisdiction: Schema.String,
  feature_type: Schema.String,
  name: Schema.String,
  description: Schema.String,
  latitude: Schema.Number,
  longitude: Schema.Number,
  geometry: Schema.NullOr(Geometry),
  road_name: NullableText,
  direction: NullableText,
  is_active: Schema.Boolean,
  start_time: NullableDateTime,
  end_time: NullableDateTime,
  estimated_start_time: NullableDateTime,
  estimated_end_time: NullableDateTime,
  properties: OpenObject.annotations({
    description: "Type-specific keys (SPEC §2.2); a key the source does not publish is absent, never zero"
  }),
  last_updated: DateTime,
  has_details: Schema.Boolean
}

export const Feature = Schema.Struct(fields).annotations({ identifier: "Feature" })
export const FeaturePage = Paged(Feature, "FeaturePage")
export const FeatureCollection = FeatureCollectionOf(
  Schema.Struct(
    { id: Schema.String, feature_type: Schema.String, name: Schema.String },
    { key: Schema.String, value: Schema.Unknown }
  ),
  "FeatureCollection"
)

export const FeatureTypeCount = Schema.Struct({ type: Schema.String, count: Count, active_count: Count }).annotations({
  identifier: "FeatureTypeCount"
})
export const FeatureGroup = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  sort_order: Count,
  feature_types: Texts
}).annotations({ identifier: "FeatureGroup" })

const Cache = Schema.Literal("hit", "miss", "none", "poll", "error")
const detail = { data: Feature, detail_available: Schema.Boolean, cache: Cache }
export const FeatureDetails = Schema.Struct(detail).annotations({ identifier: "FeatureDetails" })
export const FeatureDetailsBatch = Schema.Struct({
  count: Count,
  data: Schema.Array(
    Schema.Union(
      Schema.Struct({ id: Schema.String, ...detail }),
      Schema.Struct({
        id: Schema.String,
        detail_available: Schema.Literal(false),
        cache: Schema.Literal(""),
        not_found: Schema.Literal(true)
      })
    )
  )
}).annotations({ identifier: "FeatureDetailsBatch" })

const LatLng = Schema.Tuple(Schema.Number, Schema.Number).annotations({ description: "[lat, lng]" })
export const Corridor = Schema.Struct({
  from: LatLng,
  to: LatLng,
  buffer_km: Schema.Number,
  distance_km: Schema.Number.annotations({ description: "Great-circle length" })
}).annotations({ identifier: "Corridor" })

const DistanceKm = Schema.String.annotations({
  description: "Distance from the corridor line in km, as a decimal string (SPEC §2.2)",
  jsonSchema: { type: "string", pattern: "^\\d+(\\.\\d+)?$" }
})

export const CorridorFeature = Schema.Struct({
  ...fields,
  properties: Schema.Struct({ _distance_km: DistanceKm }, { key: Schema.String, value: Schema.Unknown })
}).annotations({ identifier: "CorridorFeature" })

export const CorridorResult = Schema.Struct({
  corridor: Corridor,
  data: Schema.Array(CorridorFeature),
  total: Count,
  limit: Count,
  attribution: Schema.optional(Schema.Array(SourceCredit)),
  warnings: Schema.optional(Schema.Array(ApiWarning))
}).annotations({ identifier: "CorridorResult" })

export const CorridorCollection = Schema.Struct({
  type: Schema.Literal("FeatureCollection"),
  features: Schema.Array(
    Schema.Struct({
      type: Schema.Literal("Feature"),
      id: Schema.String,
      geometry: Geometry,
      properties: Schema.Struct(
        { id: Schema.String, feature_type: Schema.String, _distance_km: DistanceKm },
        { key: Schema.String, value: Schema.Unknown }
      )
    })
  ),
  corridor: Corridor,
  total: Count,
  limit: Count,
  attribution: Schema.optional(Schema.Array(SourceCredit))
}).annotations({ identifier: "CorridorCollection" })
