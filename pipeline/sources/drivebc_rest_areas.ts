import { Schema } from "effect"
import { type FeatureObservation, NO_WINDOW } from "../../shared/domain/Feature.js"
import { directionOf } from "../../shared/domain/Road.js"
import { northAmericanLngLat } from "../../shared/geo/representativePoint.js"
import { DRIVEBC_CREDIT } from "./lib/credits.js"
import { field, Lenient, defineAdapter, type FeatureAdapter } from "./Adapter.js"

/**
 * DriveBC rest areas (an array of `{rest_stop_id, geometry, properties}`; positions are
 * latitude first). Facilities are published as the agency states them; a count of EV stations
 * the agency gives as 0 is a real 0, an absent one is omitted.
 */

const YesNo = Schema.optional(Schema.NullOr(Schema.String))
const Count = Lenient.optNumber

const RestArea = Schema.Struct({
  rest_stop_id: Schema.NonEmptyTrimmedString,
  geometry: Lenient.point,
  properties: Schema.Struct({
    REST_AREA_NAME: Schema.String,
    HIGHWAY_NUMBER: Lenient.optString,
    DIRECTION_OF_TRAFFIC: Lenient.optString,
    DISTANCE_FROM_MUNICIPALITY: Lenient.optString,
    ACCOM_COMMERCIAL_TRUCKS: YesNo,
    OPEN_YEAR_ROUND: YesNo,
    WI_FI: YesNo,
    WHEELCHAIR_ACCESS_TOILET: YesNo,
    TOILET_TYPE: Lenient.optString,
    POWER_TYPE: Lenient.optString,
    NUMBER_OF_TOILETS: Count,
    NUMBER_OF_TABLES: Count,
    EV_STATION_25_KW_DCFC: Count,
    EV_STATION_50_KW_DCFC: Count,
    EV_STATION_LEVEL_2_J1772: Count,
    REST_AREA_CLASS: Lenient.optString,
    OPEN_DATE: Lenient.optString,
    CLOSE_DATE: Lenient.optString
  })
})
type RestArea = typeof RestArea.Type

const yes = (v: string | null | undefined) =>
  v === undefined || v === null || v === "" ? undefined : v.trim().toLowerCase() === "yes"

const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null))

const toFeature =
  (jurisdiction: string) =>
  (r: RestArea): FeatureObservation | string => {
    const [a, b] = r.geometry.coordinates
    const pos = northAmericanLngLat(a, b)
    if (!pos) return `position ${a},${b} is not in North America either way round`
    const p = r.properties
    const trucks = yes(p.ACCOM_COMMERCIAL_TRUCKS)
    const amenities = [
      p.TOILET_TYPE && p.TOILET_TYPE !== "None" ? "toilets" : null,
      yes(p.WHEELCHAIR_ACCESS_TOILET) ? "accessible_toilets" : null,
      (p.NUMBER_OF_TABLES ?? 0) > 0 ? "picnic_tables" : null,
      yes(p.WI_FI) ? "wifi" : null,
      (p.EV_STATION_25_KW_DCFC ?? 0) + (p.EV_STATION_50_KW_DCFC ?? 0) + (p.EV_STATION_LEVEL_2_J1772 ?? 0) > 0
        ? "ev_charging"
        : null
    ].filter((x): x is string => x !== null)
    return {
      source_id: r.rest_stop_id,
      jurisdiction,
      feature_type: "rest_areas",
      name: p.REST_AREA_NAME.trim(),
      description: p.DISTANCE_FROM_MUNICIPALITY ?? "",
      latitude: pos.latitude,
      longitude: pos.longitude,
      geometry: null,
      road_name: p.HIGHWAY_NUMBER ? `Highway ${p.HIGHWAY_NUMBER}` : null,
      direction: directionOf(p.DIRECTION_OF_TRAFFIC),
      is_active: true,
      ...NO_WINDOW,
      properties: defined({
        amenities,
        accommodates_trucks: trucks,
        open_year_round: yes(p.OPEN_YEAR_ROUND),
        toilet_count: p.NUMBER_OF_TOILETS,
        table_count: p.NUMBER_OF_TABLES,
        ev_dcfc_25kw_count: p.EV_STATION_25_KW_DCFC,
        ev_dcfc_50kw_count: p.EV_STATION_50_KW_DCFC,
        ev_level2_count: p.EV_STATION_LEVEL_2_J1772,
        power: p.POWER_TYPE,
        rest_area_class: p.REST_AREA_CLASS
      }),
      has_details: false
    }
  }

export const drivebc_rest_areas: FeatureAdapter = defineAdapter({
  id: "drivebc_rest_areas",
  revision: 1,
  kind: "features",
  formats: ["drivebc-rest-stops"],
  yields: ["rest_areas"],
  attribution: DRIVEBC_CREDIT,
  records: {
    envelope: Schema.Array(Schema.Unknown),
    items: (a) => a,
    record: RestArea,
    map: toFeature,
    idOf: field("rest_stop_id")
  }
})
