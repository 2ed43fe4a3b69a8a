import { Schema } from "effect"
import type { FeatureObservation } from "../../shared/domain/Feature.js"
import { directionOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { validLatLng } from "../../shared/geo/representativePoint.js"
import { DRIVEBC_CREDIT } from "./lib/credits.js"
import { field, Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"
import { multiToText } from "./lib/multiText.js"

/**
 * DriveBC dynamic message signs (an array, or one sign). The message is the agency's own
 * pre-rendered pages when given, else the NTCIP MULTI text rendered; a sign that is off or
 * not OK is inactive. `cache_datetime_utc` is a fetch stamp and is not published.
 */

const Sign = Schema.Struct({
  id: Schema.NonEmptyTrimmedString,
  name: Lenient.optString,
  name_override: Lenient.optString,
  category: Lenient.optString,
  description: Lenient.optString,
  roadway_name: Lenient.optString,
  roadway_direction: Lenient.optString,
  message_text: Lenient.optString,
  static_text: Lenient.optString,
  status: Lenient.optString,
  is_on: Lenient.optBoolean,
  location: Lenient.point,
  updated_datetime_utc: Lenient.optString,
  message_expiry_datetime_utc: Lenient.optString,
  message_display_1: Lenient.optString,
  message_display_2: Lenient.optString,
  message_display_3: Lenient.optString
})
type Sign = typeof Sign.Type

const Envelope = Schema.Union(
  Schema.Array(Schema.Unknown),
  Schema.Struct(
    { id: Schema.String, location: Schema.Unknown },
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  )
)

const toFeature =
  (jurisdiction: string) =>
  (s: Sign): FeatureObservation | string => {
    const [lng, lat] = s.location.coordinates
    if (!validLatLng(lat, lng)) return `invalid coordinates ${lng},${lat}`
    const pages = [s.message_display_1, s.message_display_2, s.message_display_3].filter(
      (p): p is string => !!p && p.trim() !== ""
    )
    const message =
      pages.length > 0 ? pages.join("\n") : s.message_text ? multiToText(s.message_text) : (s.static_text ?? "")
    const expires = toIso(s.message_expiry_datetime_utc)
    return {
      source_id: s.id,
      jurisdiction,
      feature_type: "signs",
      name: s.name_override?.trim() || s.name?.trim() || s.id,
      description: s.description ?? "",
      latitude: lat,
      longitude: lng,
      geometry: null,
      road_name: s.roadway_name ?? null,
      direction: directionOf(s.roadway_direction),
      is_active: s.is_on !== false && (s.status ?? "OK").toUpperCase() === "OK",
      start_time: null,
      end_time: null,
      estimated_start_time: null,
      estimated_end_time: expires,
      properties: {
        message,
        ...(s.message_text ? { message_multi: s.message_text } : {}),
        ...(pages.length > 0 ? { pages } : {}),
        sign_type: "dms",
        ...(s.category ? { model: s.category } : {}),
        ...(toIso(s.updated_datetime_utc) ? { posted_at: toIso(s.updated_datetime_utc) } : {}),
        ...(s.status ? { device_status: s.status.toLowerCase() } : {})
      },
      has_details: false
    }
  }

export const drivebc_dms: FeatureAdapter = defineAdapter({
  id: "drivebc_dms",
  revision: 1,
  kind: "features",
  formats: ["drivebc-dms"],
  yields: ["signs"],
  attribution: DRIVEBC_CREDIT,
  records: {
    envelope: Envelope,
    items: (e) => (Array.isArray(e) ? e : [e]),
    record: Sign,
    map: toFeature,
    idOf: field("id")
  }
})
