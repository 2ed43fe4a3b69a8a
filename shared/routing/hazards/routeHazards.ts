import { Effect } from "effect"
import { RouteLine } from "../../geo/routeLine.js"
import type { RouteTrack } from "../engine/RoutingEngine.js"
import { clearanceOf } from "../../domain/clearance.js"
import type { EventRow, FeatureRow, Geometry, HazardRows, Row, Stamp } from "./hazardRows.js"
import { secondsAt } from "../engine/routeTime.js"

export type WarningType =
  | "bridge_clearance"
  | "truck_restriction"
  | "weight_restriction"
  | "rail_crossing"
  | "traffic_event"
  | "future_construction"
  | "special_event"
  | "weigh_station"
  | "inspection_station"
  | "alert"
  | "weather"
export type Severity = "info" | "warning" | "critical"

export interface Warning {
  readonly type: WarningType
  readonly severity: Severity
  readonly title: string
  readonly description: string
  readonly distance_along_route_m: number
  readonly projected_arrival_time: string
  readonly source: string
  readonly source_id: string
  readonly geometry: Geometry
  readonly properties: Record<string, unknown>
  readonly status?: "open" | "closed" | "unknown"
  readonly as_of?: string | null
  /** the hazard bars this truck: the route should be moved off it when it can */
  readonly blocking: boolean
  /** index of the route segment it lies on */
  readonly segment: number
}

export interface RouteFeature {
  readonly id: string
  readonly type: string
  readonly name: string
  readonly distance_along_route_m: number
  readonly capacity: number | null
  readonly geometry: Geometry
}

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 }
export const atLeast = (s: Severity, min: Severity) => SEVERITY_RANK[s] >= SEVERITY_RANK[min]

const STATION_TYPES: Record<string, WarningType> = {
  weigh_stations: "weigh_station",
  inspection_stations: "inspection_station"
}
/** Feature types whose warnings can bar a truck (closures are the events that can). */
export const BLOCKING_FEATURE_TYPES: ReadonlySet<string> = new Set([
  "bridge_clearances",
  "bridges",
  "weight_restrictions",
  "truck_restrictions"
])
/** Feature types whose warnings can be critical: a change to one may matter to a monitored route. */
export const CRITICAL_FEATURE_TYPES = [...BLOCKING_FEATURE_TYPES, "rail_crossings"]
export const HAZARD_FEATURE_TYPES = [...CRITICAL_FEATURE_TYPES, ...Object.keys(STATION_TYPES)]
/** the others along the route are only listed, when asked for */
const WARNING_FEATURE_TYPES: ReadonlySet<string> = new Set(HAZARD_FEATURE_TYPES)

/** the WZDx restriction adapter stores weights in short tons (US tons) */
const SHORT_TON_T = 0.90718474
const num = (v: unknown) =>
  typeof v === "number" && Number.isFinite(v)
    ? v
    : typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))
      ? Number(v)
      : undefined
// a kept row (shared/routing/plan/evaluation.ts `keepable`) leaves empty fields out: undefined is null
const ms = (d: Stamp | undefined) => (d == null ? null : new Date(d).getTime())
/** the form `Date.toISOString` writes, which the database layer gives timestamps in already */
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const iso = (d: Stamp | undefined) =>
  d == null ? null : typeof d === "string" && ISO_MS.test(d) ? d : new Date(d).toISOString()

type Windowed = { start_time: Stamp; end_time: Stamp; estimated_start_time: Stamp; estimated_end_time: Stamp }
/** A row's (estimated) window in ms, parsed once: a request judges the same rows several times. */
const windows = new WeakMap<Windowed, readonly [number | null, number | null]>()
/** A row's (estimated) window in ms; null: open. */
export const windowMs = (r: Windowed): readonly [number | null, number | null] => [
  ms(r.estimated_start_time ?? r.start_time),
  ms(r.estimated_end_time ?? r.end_time)
]
const windowOf = (r: Windowed) => {
  let w = windows.get(r)
  if (w === undefined) windows.set(r, (w = windowMs(r)))
  return w
}
const pointOf = (r: Row): Geometry => r.geometry ?? { type: "Point", coordinates: [r.longitude, r.latitude] }

/** The truck as hazards see it. */
export interface TruckView {
  readonly height_m: number
  readonly weight_t: number
  readonly length_m?: number
  readonly width_m?: number
  readonly hazmat: boolean
}

/** A weight restriction's limit in tonnes (the WZDx adapter writes short tons). */
export const weightLimitOf = (props: Record<string, unknown>) => {
  const shortTons = num(props.weight_limit_tons)
  return shortTons !== undefined ? Math.round(shortTons * SHORT_TON_T * 100) / 100 : num(props.max_weight_t)
}

/**
 * Warning titles, shared with what a route is moved off ahead (StandingBarriers): one barrier reads the same in both.
 */
export const clearanceTitle = (clearance: number, name: string) => `Low clearance ${clearance.toFixed(2)} m: ${name}`
export const weightTitle = (limit: number, name: string) => `Weight limit ${limit} t: ${name}`
export const truckRestrictionTitle = (dimension: string, name: string) => `Truck restriction (${dimension}): ${name}`

/** Dimensions a truck restriction record bars this truck on, one entry per violated dimension. */
export const violatedDimensions = (
  p: Record<string, unknown>,
  t: TruckView
): Array<{ dimension: string; limit: number | null; truck: number | null }> => {
  const out: Array<{ dimension: string; limit: number | null; truck: number | null }> = []
  const list = Array.isArray(p.restrictions) ? (p.restrictions as Array<Record<string, unknown>>) : []
  for (const r of list) {
    const v = num(r.value) ?? null
    switch (r.type) {
      case "no-trucks":
        out.push({ dimension: "vehicle", limit: null, truck: null })
        break
      case "no-hazardous-material":
        if (t.hazmat) out.push({ dimension: "hazmat", limit: null, truck: null })
        break
      case "reduced-height":
        if (v !== null && t.height_m > v) out.push({ dimension: "height", limit: v, truck: t.height_m })
        break
      case "reduced-width":
        if (v !== null && t.width_m !== undefined && t.width_m > v)
          out.push({ dimension: "width", limit: v, truck: t.width_m })
        break
      case "reduced-length":
        if (v !== null && t.length_m !== undefined && t.length_m > v)
          out.push({ dimension: "length", limit: v, truck: t.length_m })
        break
      case "reduced-weight":
      case "gross-weight-limit": {
        const limit = v === null ? null : r.unit === "tons" ? Math.round(v * SHORT_TON_T * 100) / 100 : v
        if (limit !== null && t.weight_t > limit) out.push({ dimension: "weight", limit, truck: t.weight_t })
        break
      }
    }
  }
  return [...new Map(out.map((o) => [o.dimension, o])).values()]
}

export interface HazardOptions {
  readonly bufferM: number
  readonly clearancePadM: number
  readonly truck: TruckView
  readonly departureMs: number
  readonly skipTemporal: boolean
  readonly includeFeatures: ReadonlyArray<string>
}

/** When the truck reaches a point after some seconds of driving: with hours of service, the planned rests count. */
export type ArrivalClock = (driveS: number) => number

/** In force at an instant: the (estimated) window holds it, an open end runs on. */
const inForce = (r: Windowed, at: number) => {
  const [start, end] = windowOf(r)
  return (start === null || start <= at) && (end === null || end >= at)
}

const eventWarning = (e: EventRow): { type: WarningType; severity: Severity; blocking: boolean } | undefined => {
  const sev: Severity =
    e.severity === "critical" ? "critical" : e.severity === "major" || e.severity === "moderate" ? "warning" : "info"
  switch (e.type) {
    case "closure":
      return { type: "traffic_event", severity: "critical", blocking: true }
    case "incident":
      return { type: "traffic_event", severity: sev, blocking: false }
    case "construction":
      return { type: "traffic_event", severity: sev, blocking: false }
    case "special_event":
      return { type: "special_event", severity: sev === "info" ? "info" : "warning", blocking: false }
    case "weather":
      return { type: "weather", severity: sev === "info" ? "warning" : sev, blocking: false }
    case "advisory":
    case "restriction":
      return { type: "alert", severity: sev, blocking: false }
    default:
      return undefined
  }
}

/** A row found beside the route: where along it, and on which segment. */
export interface Placed<R> {
  readonly row: R
  readonly alongM: number
  readonly segment: number
}

/** The live events and features within `bufferM` of the route, placed along it. */
export interface PlacedHazards {
  readonly events: ReadonlyArray<Placed<EventRow>>
  readonly features: ReadonlyArray<Placed<FeatureRow>>
}

/** Finds and places the route's events and features (the part that reads the database). */
export const placeHazards = Effect.fnUntraced(function* (route: RouteTrack, o: HazardOptions, rows: HazardRows) {
  const routeLine = new RouteLine(route.coordinates, route.along_m, o.bufferM)
  const { events, candidates } = yield* rows.inCells(rows.coverOf(route, o.bufferM))
  // a point feature's distance is known from the cell index: fetch only those near the line
  const near = candidates.filter((c) => !c.is_point || routeLine.place(c.longitude, c.latitude) !== undefined)
  const features = yield* rows.featureRows(near.map((c) => c.feature_id))
  const place = <R extends Row>(r: R): Array<Placed<R>> => {
    const p = routeLine.placeGeometry(r.geometry, r.longitude, r.latitude)
    return p ? [{ row: r, alongM: Math.min(route.distance_m, p.alongM), segment: p.segment }] : []
  }
  return { events: events.flatMap(place), features: features.flatMap(place) } satisfies PlacedHazards
})

/**
 * Hazards within `bufferM` of the route from live events and features, each placed along the
 * route with the projected arrival there; dimension-checked ones only where this truck violates
 * them. Also the requested features along the route. No reads: `placeHazards` found the rows.
 * Arrival times are the departure plus the driving, or `arrival`'s (the rests included).
 * `blockingOnly`: only the warnings that bar the truck, and no features (what a reroute round
 * needs: the rest is worked out once, on the final route).
 */
export const judgeHazards = (
  route: RouteTrack,
  o: HazardOptions,
  nowMs: number,
  placed: PlacedHazards,
  arrival?: ArrivalClock,
  blockingOnly = false
) => {
  const warnings: Array<Warning> = []
  const found: Array<RouteFeature> = []
  const clock: ArrivalClock = arrival ?? ((s) => o.departureMs + s * 1000)
  // most rows warn this truck of nothing: the warning (its arrival time as text above all) is
  // built only for those that do, in one object literal (spreads cost more than the judging)
  const warn = (
    r: Row,
    p: Placed<Row>,
    atMs: number,
    type: WarningType,
    severity: Severity,
    blocking: boolean,
    title: string,
    description: string,
    properties: Record<string, unknown>,
    station?: { status: "open" | "closed" | "unknown"; as_of: string | null }
  ) => {
    const warning = {
      distance_along_route_m: Math.round(p.alongM),
      projected_arrival_time: new Date(atMs).toISOString(),
      source: r.source,
      source_id: r.source_id,
      geometry: pointOf(r),
      segment: p.segment,
      type,
      severity,
      blocking,
      title,
      description,
      properties
    }
    warnings.push(station ? { ...warning, status: station.status, as_of: station.as_of } : warning)
  }
  for (const pe of placed.events) {
    const e = pe.row
    if (blockingOnly && e.type !== "closure") continue
    const atMs = clock(secondsAt(route, pe.alongM))
    const [start, end] = windowOf(e)
    if (!o.skipTemporal && !((start === null || start <= atMs) && (end === null || end >= atMs))) continue
    const future = e.type === "construction" && start !== null && start > nowMs
    const kind = future
      ? {
          type: "future_construction" as const,
          severity: (e.severity === "minor" ? "info" : "warning") as Severity,
          blocking: false
        }
      : eventWarning(e)
    if (!kind) continue
    warn(e, pe, atMs, kind.type, kind.severity, kind.blocking, e.title, e.description, {
      event_id: e.id,
      event_type: e.type,
      sub_type: e.sub_type,
      event_severity: e.severity,
      status: e.status,
      affected_roads: e.affected_roads,
      start_time: iso(e.estimated_start_time ?? e.start_time),
      end_time: iso(e.estimated_end_time ?? e.end_time)
    })
  }
  const heightLimit = o.truck.height_m + o.clearancePadM
  for (const pf of placed.features) {
    const f = pf.row
    if (blockingOnly && !BLOCKING_FEATURE_TYPES.has(f.feature_type)) continue
    if (!blockingOnly && o.includeFeatures.includes(f.feature_type)) {
      found.push({
        id: f.id,
        type: f.feature_type,
        name: f.name,
        distance_along_route_m: Math.round(pf.alongM),
        capacity: num(f.properties.capacity) ?? num(f.properties.total_spaces) ?? null,
        geometry: pointOf(f)
      })
    }
    if (!WARNING_FEATURE_TYPES.has(f.feature_type)) continue
    const atMs = clock(secondsAt(route, pf.alongM))
    if (!o.skipTemporal && !inForce(f, atMs)) continue
    const props = f.properties
    switch (f.feature_type) {
      case "bridge_clearances":
      case "bridges": {
        const clearance = clearanceOf(props)
        if (clearance === undefined || clearance >= heightLimit) break
        warn(f, pf, atMs, "bridge_clearance", "critical", true, clearanceTitle(clearance, f.name), f.description, {
          feature_id: f.id,
          clearance_m: clearance,
          truck_height_m: o.truck.height_m,
          clearance_pad_m: o.clearancePadM,
          facility_carried: props.facility_carried ?? null,
          feature_crossed: props.feature_crossed ?? f.name
        })
        break
      }
      case "weight_restrictions": {
        const limit = weightLimitOf(props)
        if (limit === undefined || o.truck.weight_t <= limit) break
        warn(f, pf, atMs, "weight_restriction", "critical", true, weightTitle(limit, f.name), f.description, {
          feature_id: f.id,
          weight_limit_t: limit,
          truck_weight_t: o.truck.weight_t,
          restriction_type: props.restriction_type ?? null
        })
        break
      }
      case "truck_restrictions":
        for (const v of violatedDimensions(props, o.truck)) {
          warn(
            f,
            pf,
            atMs,
            "truck_restriction",
            "critical",
            true,
            truckRestrictionTitle(v.dimension, f.name),
            f.description,
            {
              feature_id: f.id,
              dimension: v.dimension,
              limit: v.limit,
              truck_value: v.truck,
              restriction: props.restriction ?? null
            }
          )
        }
        break
      case "rail_crossings": {
        const atGrade = props.at_grade !== false
        const isPublic = props.public !== false
        if (!atGrade || !isPublic) break
        const highVolume =
          (num(props.daily_trains) ?? num(props.trains_per_day) ?? 0) >= 10 || props.high_volume === true
        if (!o.truck.hazmat && !highVolume) break
        warn(
          f,
          pf,
          atMs,
          "rail_crossing",
          o.truck.hazmat ? "critical" : "info",
          false,
          o.truck.hazmat ? `Rail crossing, placarded loads must stop: ${f.name}` : `Busy rail crossing: ${f.name}`,
          f.description,
          { feature_id: f.id, at_grade: atGrade, public: isPublic, crossing_type: props.crossing_type ?? null }
        )
        break
      }
      case "weigh_stations":
      case "inspection_stations": {
        const raw = typeof props.status === "string" ? props.status.toLowerCase() : undefined
        const status = raw === undefined ? undefined : raw === "open" ? "open" : raw === "closed" ? "closed" : "unknown"
        const type = STATION_TYPES[f.feature_type]
        warn(
          f,
          pf,
          atMs,
          type,
          status === "open" ? "warning" : "info",
          false,
          `${type === "weigh_station" ? "Weigh station" : "Inspection station"}${status ? ` (${status})` : " ahead"}: ${f.name}`,
          f.description,
          status ? { feature_id: f.id, status } : { feature_id: f.id },
          status
            ? {
                status,
                as_of:
                  typeof props.status_updated_at === "string"
                    ? props.status_updated_at
                    : iso((f.last_updated as Stamp) ?? null)
              }
            : undefined
        )
        break
      }
    }
  }
  warnings.sort((a, b) => a.distance_along_route_m - b.distance_along_route_m || a.source_id.localeCompare(b.source_id))
  found.sort((a, b) => a.distance_along_route_m - b.distance_along_route_m || a.id.localeCompare(b.id))
  return { warnings, features: found }
}
