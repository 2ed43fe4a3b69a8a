import { Schema } from "effect"
import { type FeatureObservation, NO_WINDOW } from "../../shared/domain/Feature.js"
import { directionOf } from "../../shared/domain/Road.js"
import { toIso } from "../../shared/domain/Timestamp.js"
import { validLatLng } from "../../shared/geo/representativePoint.js"
import { field, Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"

/**
 * Indiana TrafficWise rest areas (GeoJSON with `properties.tpims`). Truck parking availability
 * follows what the site's sign tells drivers: a number is `available_spots` (0 is full), `LOW`
 * is `availability_text`, and ` X ` (no count shown) or a negative count publishes nothing; a
 * capacity of 0 is "not known" (as in TPIMS) and is not published.
 */

const Tpims = Schema.Struct({
  capacity: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  spaces_available: Lenient.optNumber,
  tpims_message: Lenient.optString,
  last_data: Lenient.optString,
  route: Lenient.optString,
  address: Lenient.optString,
  city: Lenient.optString,
  ownership: Lenient.optString,
  exit_nbr: Lenient.optString
})

const Site = Schema.Struct({
  id: Lenient.id,
  geometry: Lenient.point,
  properties: Schema.Struct({
    state: Lenient.optString,
    site_area_description: Lenient.optString,
    site_area_label: Lenient.optString,
    site_area_status: Lenient.optString,
    site_route: Lenient.optString,
    county_name: Lenient.optString,
    mile_marker: Lenient.optNumber,
    tpims: Schema.optional(Schema.NullOr(Tpims))
  })
})
type Site = typeof Site.Type

const Envelope = Schema.Struct({ type: Schema.Literal("FeatureCollection"), features: Schema.Array(Schema.Unknown) })

const availability = (t: typeof Tpims.Type | null | undefined) => {
  if (!t) return {}
  const capacity = t.capacity === undefined || t.capacity === null || t.capacity === "" ? undefined : Number(t.capacity)
  const message = t.tpims_message?.trim() ?? ""
  const observed = toIso(t.last_data)
  const out: Record<string, unknown> = {
    ...(capacity !== undefined && Number.isFinite(capacity) && capacity > 0 ? { capacity } : {}),
    ...(observed ? { observed_at: observed } : {})
  }
  if (
    /^\d+$/.test(message) &&
    t.spaces_available !== undefined &&
    t.spaces_available !== null &&
    t.spaces_available >= 0
  ) {
    out.available_spots = t.spaces_available
    out.available = t.spaces_available
  } else if (/^[A-Za-z]+$/.test(message) && message.toUpperCase() !== "X") {
    out.availability_text = message.toUpperCase()
  }
  return out
}

const directionIn = (label: string | null | undefined) => directionOf(/^(NB|SB|EB|WB)\b/i.exec(label ?? "")?.[1])

const toFeature =
  (jurisdiction: string) =>
  (s: Site): FeatureObservation | string => {
    const [lng, lat] = s.geometry.coordinates
    if (!validLatLng(lat, lng)) return `invalid coordinates ${lng},${lat}`
    const p = s.properties
    return {
      source_id: String(s.id),
      jurisdiction: p.state?.trim() ? p.state.trim().toUpperCase() : jurisdiction,
      feature_type: "rest_areas",
      name: p.site_area_description?.trim() || `Rest area ${s.id}`,
      description: [p.tpims?.address, p.county_name ? `${p.county_name} County` : null].filter(Boolean).join(", "),
      latitude: lat,
      longitude: lng,
      geometry: null,
      road_name: p.site_route ?? p.tpims?.route ?? null,
      direction: directionIn(p.site_area_label),
      is_active: p.site_area_status !== "closed",
      ...NO_WINDOW,
      properties: {
        ...(p.site_area_status ? { open: p.site_area_status === "open" } : {}),
        ...(p.mile_marker !== undefined && p.mile_marker !== null ? { milepost: p.mile_marker } : {}),
        ...(p.tpims?.exit_nbr ? { exit_id: p.tpims.exit_nbr } : {}),
        ...(p.tpims?.ownership
          ? {
              ownership:
                p.tpims.ownership === "PU" ? "public" : p.tpims.ownership === "PR" ? "private" : p.tpims.ownership
            }
          : {}),
        ...availability(p.tpims)
      },
      has_details: false
    }
  }

export const indiana_rest_areas: FeatureAdapter = defineAdapter({
  id: "indiana_rest_areas",
  revision: 2,
  kind: "features",
  formats: ["indiana-trafficwise-rest-area-geojson"],
  yields: ["rest_areas"],
  attribution: null,
  records: {
    envelope: Envelope,
    items: (e) => e.features,
    record: Site,
    map: toFeature,
    idOf: field("id")
  }
})
