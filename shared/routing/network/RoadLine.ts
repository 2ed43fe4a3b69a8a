/**
 * One road line of a network source, the form every source is turned into before the graph is
 * built (Travel Mapping waypoints, an OSM GeoJSON export, a test's own lines): GeoJSON
 * LineString coordinates `[lng, lat]` and the properties routing needs.
 */
export const ROAD_CLASSES = ["motorway", "trunk", "primary", "secondary", "ferry"] as const
export type RoadClass = (typeof ROAD_CLASSES)[number]

/** The fields of a line that limit which trucks may use it. */
export type LimitField =
  | "truck_forbidden"
  | "hazmat_forbidden"
  | "tunnel_category"
  | "max_height_m"
  | "max_weight_t"
  | "max_length_m"
  | "max_axles"

export interface RoadProps {
  /** route numbers, `;`-joined where routes run together ("I-80;I-90") */
  readonly ref: string | null
  readonly name: string | null
  readonly class: RoadClass
  /** a truck's planning speed on the line, km/h */
  readonly speed_kph: number
  /** true: drivable only in the direction of the coordinates */
  readonly oneway: boolean
  /** toll system id (see the toll table), or null for a free road */
  readonly toll: string | null
  readonly tunnel: boolean
  readonly ferry: boolean
  readonly max_height_m: number | null
  readonly max_weight_t: number | null
  /** longest vehicle allowed, metres, and most axles (older files: absent, no limit) */
  readonly max_length_m?: number | null
  readonly max_axles?: number | null
  readonly hazmat_forbidden: boolean
  /**
   * A tunnel's dangerous-goods category (ADR 1.9.5: B to E, E the strictest); placarded loads
   * are kept out of D and E (older files: absent)
   */
  readonly tunnel_category?: "B" | "C" | "D" | "E" | null
  /**
   * where each of the line's limits comes from (a table row, an NBI structure, an OSM way), by field (older files:
   * absent)
   */
  readonly restriction_sources?: Readonly<Partial<Record<LimitField, string>>> | null
  /** trucks barred outright (parkways, local truck bans) */
  readonly truck_forbidden: boolean
  /** state or province code the line was published under, when known */
  readonly region: string | null
}

export interface RoadLine {
  readonly coordinates: ReadonlyArray<readonly [number, number]>
  readonly props: RoadProps
}

export const FREE_ROAD: Omit<RoadProps, "class" | "speed_kph"> = {
  ref: null,
  name: null,
  oneway: false,
  toll: null,
  tunnel: false,
  ferry: false,
  max_height_m: null,
  max_weight_t: null,
  hazmat_forbidden: false,
  truck_forbidden: false,
  region: null
}
