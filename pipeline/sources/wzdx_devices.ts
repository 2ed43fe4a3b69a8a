import { Schema } from "effect"
import { type FeatureObservation, NO_WINDOW } from "../../shared/domain/Feature.js"
import { directionOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { northAmericanLngLat } from "../../shared/geo/representativePoint.js"
import { field, Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"
import { multiToText } from "./lib/multiText.js"

/**
 * WZDx 4.2 DeviceFeed (incl. iCone's dialect): field devices at work zones. Cameras, message
 * signs and arrow boards become features; traffic sensors and signals too; location markers
 * and flashing beacons are not published. A device reporting `error` is inactive.
 */

const Device = Schema.Struct({
  id: Lenient.id,
  geometry: Lenient.point,
  properties: Schema.Struct({
    core_details: Schema.Struct({
      device_type: Schema.String,
      device_status: Schema.String,
      update_date: Schema.String,
      name: Lenient.optString,
      description: Lenient.optString,
      road_names: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
      road_direction: Lenient.optString,
      road_event_ids: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
      status_messages: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
      milepost: Lenient.optNumber,
      is_moving: Lenient.optBoolean
    }),
    pattern: Lenient.optString,
    message_multi_string: Lenient.optString,
    image_url: Lenient.optString,
    image_timestamp: Lenient.optString,
    sign_type: Lenient.optString
  })
})
type Device = typeof Device.Type

const Envelope = Schema.Struct({ type: Schema.Literal("FeatureCollection"), features: Schema.Array(Schema.Unknown) })

const TYPES: Record<string, string> = {
  camera: "cameras",
  "dynamic-message-sign": "signs",
  "hybrid-sign": "signs",
  "arrow-board": "arrow_boards",
  "traffic-sensor": "traffic_sensors",
  "traffic-signal": "traffic_signals"
}

const toFeature =
  (jurisdiction: string) =>
  (d: Device): FeatureObservation | string | null => {
    const core = d.properties.core_details
    const featureType = TYPES[core.device_type]
    if (!featureType) return null
    const [x, y] = d.geometry.coordinates
    const pos = northAmericanLngLat(x, y)
    if (!pos) return `position ${x},${y} is not in North America either way round`
    const road = core.road_names?.[0] ?? null
    const message = d.properties.message_multi_string ? multiToText(d.properties.message_multi_string) : undefined
    return {
      source_id: String(d.id),
      jurisdiction,
      feature_type: featureType,
      name: core.name ?? `${core.device_type.replace(/-/g, " ")}${road ? ` on ${road}` : ""}`,
      description: core.description ?? "",
      latitude: pos.latitude,
      longitude: pos.longitude,
      geometry: null,
      road_name: road,
      direction: directionOf(core.road_direction),
      is_active: core.device_status !== "error",
      ...NO_WINDOW,
      properties: {
        device_status: core.device_status,
        ...(core.status_messages && core.status_messages.length > 0 ? { status_messages: core.status_messages } : {}),
        ...(d.properties.image_url ? { url: d.properties.image_url } : {}),
        ...(d.properties.pattern ? { pattern: d.properties.pattern } : {}),
        ...(message !== undefined ? { message, message_multi: d.properties.message_multi_string } : {}),
        ...(featureType === "signs"
          ? { sign_type: core.device_type === "hybrid-sign" ? "hybrid" : "dms", posted_at: toIso(core.update_date) }
          : {}),
        ...(core.road_event_ids && core.road_event_ids.length > 0 ? { road_event_ids: core.road_event_ids } : {}),
        ...(core.milepost !== undefined && core.milepost !== null ? { milepost: core.milepost } : {}),
        ...(core.is_moving ? { is_moving: true } : {}),
        ...(pos.swapped ? { coordinates_swapped: true } : {})
      },
      has_details: false
    }
  }

export const wzdx_devices: FeatureAdapter = defineAdapter({
  id: "wzdx_devices",
  revision: 1,
  kind: "features",
  formats: ["wzdx-4.2-devicefeed"],
  yields: ["cameras", "signs", "arrow_boards", "traffic_sensors", "traffic_signals"],
  attribution: null,
  records: {
    envelope: Envelope,
    items: (e) => e.features,
    record: Device,
    map: toFeature,
    idOf: field("id")
  }
})
