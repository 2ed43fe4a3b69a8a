import { Schema } from "effect"
import { Geometry } from "./Event.js"

const NullableString = Schema.NullOr(Schema.String)

/**
 * One road feature as an adapter observes it (SPEC §2.2) without the service's bookkeeping
 * (id, last_updated). `properties` follow the per-type keys of §2.2; absent means unknown,
 * never zero.
 */
export const FeatureObservation = Schema.Struct({
  source_id: Schema.String,
  jurisdiction: Schema.String,
  feature_type: Schema.String,
  name: Schema.String,
  description: Schema.String,
  latitude: Schema.Number,
  longitude: Schema.Number,
  /** full geometry for line and polygon features; null for point-only ones */
  geometry: Schema.NullOr(Geometry),
  road_name: NullableString,
  direction: NullableString,
  is_active: Schema.Boolean,
  start_time: NullableString,
  end_time: NullableString,
  estimated_start_time: NullableString,
  estimated_end_time: NullableString,
  properties: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  has_details: Schema.Boolean
})
export type FeatureObservation = typeof FeatureObservation.Type

/** The time fields of a permanent feature (cameras, stations, signs …): no window at all. */
export const NO_WINDOW = {
  start_time: null,
  end_time: null,
  estimated_start_time: null,
  estimated_end_time: null
} as const
