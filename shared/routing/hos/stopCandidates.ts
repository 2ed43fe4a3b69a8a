import { Effect } from "effect"
import { RouteLine } from "../../geo/routeLine.js"
import type { RouteTrack } from "../engine/RoutingEngine.js"
import type { Geometry, HazardRows, Stamp } from "../hazards/hazardRows.js"
import { secondsAt } from "../engine/routeTime.js"
import type { ForecastCurve } from "../../parking/forecastCurve.js"
import { PARKING_TYPES, siteKey } from "../../parking/readings.js"

/** Feature types a driver can take a rest at, and the `type` a suggested stop shows. */
export const STOP_TYPES: Record<string, "truck_parking" | "truck_rest_area" | "rest_area"> = {
  truck_parking: "truck_parking",
  truck_rest_areas: "truck_rest_area",
  rest_areas: "rest_area"
}
/** Lots sit off the carriageway at exits: they count within this distance of the route line. */
export const STOP_REACH_M = 1500

export interface StopCandidate {
  readonly id: string
  readonly type: "truck_parking" | "truck_rest_area" | "rest_area"
  readonly name: string
  readonly alongM: number
  /** the route's drive seconds to it */
  readonly alongS: number
  readonly capacity: number | null
  /** live spaces where the feed publishes a count (0 is full), with its time */
  readonly available_spots?: number
  readonly as_of?: string
  /** full or closed in the live feed: no place to stop */
  readonly unusable: boolean
  /** the parking forecaster's key for a lot that publishes counts (state:site id) */
  readonly site?: string
  /** its free spaces forecast for the next 24 hours, attached after the lookup when the forecaster knows it */
  readonly forecast?: ForecastCurve
  readonly geometry: Geometry
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined)
const iso = (d: Stamp | undefined) => (d === null || d === undefined ? undefined : new Date(d).toISOString())

/** A route's line indexed at the reach of a place to stop, built once for the stretches read along it. */
const lines = new WeakMap<RouteTrack, RouteLine>()
const lineOf = (route: RouteTrack) => {
  let line = lines.get(route)
  if (line === undefined) lines.set(route, (line = new RouteLine(route.coordinates, route.along_m, STOP_REACH_M)))
  return line
}

/**
 * Truck parking, truck rest areas and rest areas near the route, in route order: in all of its
 * cells, or in `cells` only (the cover of some stretches, `rows.coverOfStretch`: the answer
 * then holds every place whose position along the route falls in them, and may hold some
 * placed elsewhere).
 */
export const stopCandidates = Effect.fnUntraced(function* (
  route: RouteTrack,
  rows: HazardRows,
  cells = rows.coverOf(route, STOP_REACH_M)
) {
  const line = lineOf(route)
  const candidates = yield* rows.candidatesOf(cells, Object.keys(STOP_TYPES))
  const near = candidates.filter((c) => !c.is_point || line.place(c.longitude, c.latitude) !== undefined)
  const features = yield* rows.featureRows(near.map((c) => c.feature_id))
  const out: Array<StopCandidate> = []
  for (const f of features) {
    const type = STOP_TYPES[f.feature_type]
    const at = type && line.placeGeometry(f.geometry, f.longitude, f.latitude)
    if (!type || !at) continue
    const p = f.properties
    const spots = num(p.available_spots)
    const alongM = Math.min(route.distance_m, at.alongM)
    out.push({
      id: f.id,
      type,
      name: f.name,
      alongM,
      alongS: secondsAt(route, alongM),
      capacity: num(p.capacity) ?? num(p.total_spaces) ?? null,
      ...(spots !== undefined
        ? {
            available_spots: spots,
            as_of: typeof p.observed_at === "string" ? p.observed_at : iso(f.last_updated as Stamp)
          }
        : {}),
      unusable: spots === 0 || p.open === false,
      ...(PARKING_TYPES.has(f.feature_type) && f.jurisdiction ? { site: siteKey(f.jurisdiction, f.source_id) } : {}),
      geometry: f.geometry ?? { type: "Point", coordinates: [f.longitude, f.latitude] }
    })
  }
  return out.sort(byPlace)
})

/** Route order, ties by id: the order every list of candidates keeps. */
export const byPlace = (a: StopCandidate, b: StopCandidate) => a.alongM - b.alongM || a.id.localeCompare(b.id)
