import { Context, Data, type Effect } from "effect"

export interface LatLng {
  readonly lat: number
  readonly lng: number
}

/** A truck's top speed when its profile names none: fleets govern long-haul tractors at 100–110 km/h. */
export const DEFAULT_MAX_SPEED_KMH = 105

/** What the engine must respect of the truck (the rest of the profile is the API's business). */
export interface TruckDimensions {
  readonly height_m: number
  readonly weight_t: number
  readonly length_m?: number
  readonly width_m?: number
  readonly axle_count?: number
  readonly hazmat: boolean
  /** the truck's governed top speed, km/h (absent: the engine's default) */
  readonly max_speed_kmh?: number
}

/** A place the route must not pass: a live closure or a restriction the truck violates. */
export interface Exclusion extends LatLng {
  readonly radius_m: number
  /** the engine's own key of the road piece found there on an earlier answer (built-in engine) */
  readonly edge_key?: string
}

export interface EngineRequest {
  /** origin, waypoints in order, destination */
  readonly points: ReadonlyArray<LatLng>
  readonly truck: TruckDimensions
  readonly avoid: { readonly toll_road: boolean; readonly ferry: boolean; readonly tunnel: boolean }
  /** extra routes wanted besides the best one (0–3) */
  readonly alternatives: number
  readonly exclusions: ReadonlyArray<Exclusion>
  /**
   * the engine's keys of road pieces the route keeps off (barriers known ahead, see StandingBarriers), in groups: a
   * group passed again (the same array) may be kept prepared. A point they wall in is let through the wall; an engine
   * without keys ignores them
   */
  readonly excluded_keys?: ReadonlyArray<ReadonlyArray<string>>
}

/** A run of the route along one road (and toll system). */
export interface EngineSection {
  readonly distance_m: number
  readonly duration_s: number
  readonly summary: string
  /** toll system id, null on free road */
  readonly toll: string | null
  /**
   * the state or province its last piece lies in, where the network knows (a one-way toll is collected by the way it
   * enters)
   */
  readonly to_region?: string | null
  /** coordinate index range [from, to] in the route's coordinates */
  readonly from_index: number
  readonly to_index: number
}

export interface EngineRoute {
  /** `[lng, lat]` */
  readonly coordinates: ReadonlyArray<readonly [number, number]>
  /** metres and seconds from the start at each coordinate */
  readonly along_m: ReadonlyArray<number>
  readonly along_s: ReadonlyArray<number>
  readonly distance_m: number
  readonly duration_s: number
  readonly sections: ReadonlyArray<EngineSection>
  /**
   * the engine's key of the road piece under each segment (coordinate i to i + 1), for exclusions on a later request
   */
  readonly segment_keys: ReadonlyArray<string>
  /**
   * Length per state or province from the network's own knowledge of where each road lies
   * (Travel Mapping publishes every route under one region), in order of first entry. Absent
   * when some road on the route has no region (an imported network without it, another engine):
   * the state polygons are used then.
   */
  readonly regions?: ReadonlyArray<RegionLength>
  /** every passage between the US and Canada, in order (absent: the engine does not know its regions) */
  readonly crossings?: ReadonlyArray<BorderPassage>
}

/**
 * A route that never moves (origin = destination): RFC 7946 asks a LineString for two or more
 * positions, so the place is given twice, zero metres and seconds apart, over the road it is on.
 */
export const standingStill = (at: readonly [number, number], key: string) => ({
  coordinates: [at, at] as ReadonlyArray<readonly [number, number]>,
  along_m: [0, 0],
  along_s: [0, 0],
  segment_keys: [key]
})

/** One state's or province's part of a route: all of it and its tolled part, in metres. */
export interface RegionLength {
  readonly region: string
  readonly distance_m: number
  readonly toll_m: number
}

/** What a route's hazards, timing and stops are read from: its line and the distance and time along it. */
export type RouteTrack = Pick<
  EngineRoute,
  "coordinates" | "along_m" | "along_s" | "distance_m" | "duration_s" | "regions" | "crossings"
>
/** A route's timing without its coordinates: what arrival times and hours of service read. */
export type RouteTiming = Pick<
  RouteTrack,
  "along_m" | "along_s" | "distance_m" | "duration_s" | "crossings" | "regions"
>

/** Where a route passes from one country into the other, at one of its coordinates. */
export interface BorderPassage {
  readonly index: number
  readonly along_m: number
  readonly along_s: number
  readonly from_region: string
  readonly to_region: string
  /** the roads either side, as the sections name them */
  readonly road: string
}

export class RouteNotFound extends Data.TaggedError("RouteNotFound")<{
  readonly message: string
  readonly field?: string
}> {}
export class EngineUnavailable extends Data.TaggedError("EngineUnavailable")<{ readonly message: string }> {}

/** A limit of the network (a low structure, a weight limit, a truck or hazmat ban) the route was kept from. */
export interface LimitAvoided {
  readonly dimension: "trucks" | "hazmat" | "height" | "weight" | "length" | "axles"
  readonly limit: number | null
  readonly title: string
  /** where the limit comes from (a table row, an NBI structure, an OSM way), when the network says */
  readonly source: string | null
  readonly edge_key: string
}

export interface EngineAnswer {
  /** best route first, then alternatives (possibly fewer than asked) */
  readonly routes: ReadonlyArray<EngineRoute>
  /** credits of the road data the routes come from */
  readonly credit: ReadonlyArray<string>
  /** what the truck's limits kept the best route from, where the engine can say (the built-in one) */
  readonly limits_avoided?: ReadonlyArray<LimitAvoided>
}

export interface RoutingEngineShape {
  /** "builtin" or "valhalla" */
  readonly name: string
  readonly route: (req: EngineRequest) => Effect.Effect<EngineAnswer, RouteNotFound | EngineUnavailable>
  /**
   * The res-7 cells within `bufferM` of the road pieces a route of this engine names in its
   * `segment_keys`, where the engine keeps them (the built-in one, per edge); undefined when
   * it cannot say, and the caller covers the route's line itself.
   */
  readonly covers?: (segmentKeys: ReadonlyArray<string>, bufferM: number) => ReadonlyArray<string> | undefined
  /**
   * Where places lie on the engine's own road pieces, once its network is loaded (loading it if
   * need be); absent for an engine that names no pieces (Valhalla).
   */
  readonly edgeLocator?: Effect.Effect<EdgeLocator, EngineUnavailable>
}

/**
 * The engine's keys of the road pieces whose line passes within `radiusM` of a place, each with its distance in
 * metres.
 */
export type EdgeLocator = (lat: number, lng: number, radiusM: number) => ReadonlyMap<string, number>

/** The routing seam: the built-in graph or Valhalla, chosen by ROUTING_ENGINE. */
export class RoutingEngine extends Context.Tag("shared/RoutingEngine")<RoutingEngine, RoutingEngineShape>() {}
