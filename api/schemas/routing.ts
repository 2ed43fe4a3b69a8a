import { Schema } from "effect"
import { Count, DateTime, NullableText, OpenObject } from "./common.js"

const num = (min: number, max: number, description: string) =>
  Schema.Number.pipe(Schema.filter((n) => Number.isFinite(n) && n >= min && n <= max, { message: () => `must be a number from ${min} to ${max}` }))
    .annotations({ description, jsonSchema: { type: "number", minimum: min, maximum: max } })
const int = (min: number, max: number, description: string) =>
  Schema.Number.pipe(Schema.filter((n) => Number.isInteger(n) && n >= min && n <= max, { message: () => `must be a whole number from ${min} to ${max}` }))
    .annotations({ description, jsonSchema: { type: "integer", minimum: min, maximum: max } })
const oneOf = <const L extends ReadonlyArray<string>>(values: L, description: string, extra = "") =>
  Schema.String.pipe(Schema.filter((s): s is L[number] => values.includes(s), { message: () => `must be one of ${values.join(", ")}${extra}` }))
    .annotations({ description, jsonSchema: { type: "string", enum: [...values] } })

export const Point = Schema.Struct({ lat: num(-90, 90, "Latitude"), lng: num(-180, 180, "Longitude") })

/** `avoid` spellings: SPEC shows toll_road, ferry, tunnel; another listing spells them plural. */
export const AVOID_ALIASES = {
  toll_road: "toll_road", toll_roads: "toll_road", tolls: "toll_road", ferry: "ferry", ferries: "ferry", tunnel: "tunnel", tunnels: "tunnel"
} as const satisfies Record<string, "toll_road" | "ferry" | "tunnel">
export const AVOID_VALUES = Object.keys(AVOID_ALIASES) as Array<keyof typeof AVOID_ALIASES>
export const INCLUDE_VALUES = ["tolls", "mileage_by_state", "toll_alternative", "polyline", "summary"] as const
export const WARNING_TYPES = [
  "bridge_clearance", "truck_restriction", "weight_restriction", "rail_crossing", "traffic_event", "future_construction",
  "special_event", "weigh_station", "inspection_station", "alert", "weather"
] as const
export const SEVERITIES = ["info", "warning", "critical"] as const
export const ROUTE_FEATURE_TYPES = ["truck_parking", "truck_rest_areas", "rest_areas", "service_plazas", "weigh_stations", "inspection_stations", "fuel_stations", "ev_charging"] as const
export const HOS_RULESETS = ["us", "canada_south", "canada_north", "eu"] as const

const Hos = Schema.Struct({
  ruleset: Schema.optional(Schema.String.pipe(Schema.filter((s) =>
    s === "" || (HOS_RULESETS as ReadonlyArray<string>).includes(s) ? true : s === "aetr" ? "aetr is planned, not available yet" : `must be one of ${HOS_RULESETS.join(", ")}`))
    .annotations({ description: "us, canada_south, canada_north or eu; aetr is planned, not available", jsonSchema: { type: "string", enum: ["", ...HOS_RULESETS] } })),
  drive_remaining_s: Schema.optional(int(0, 86_400 * 8, "Seconds of driving left today")),
  duty_remaining_s: Schema.optional(int(0, 86_400 * 8, "Seconds of the duty window left")),
  since_break_s: Schema.optional(int(0, 86_400 * 8, "Seconds left before a break is required")),
  elapsed_remaining_s: Schema.optional(int(0, 86_400 * 8, "Canada: seconds of the elapsed window left")),
  cycle_remaining_s: Schema.optional(int(0, 86_400 * 16, "Seconds of the weekly cycle left"))
})

export const Truck = Schema.Struct({
  profile: oneOf(["tractor", "straight", "box"] as const, "Vehicle kind"),
  weight_t: num(0.5, 200, "Gross weight, metric tonnes"),
  height_m: num(1, 6, "Height, metres"),
  length_m: Schema.optional(num(2, 60, "Length, metres")),
  width_m: Schema.optional(num(1, 5, "Width, metres")),
  axle_count: Schema.optional(int(2, 13, "Axles")),
  hazardous: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(60))).pipe(Schema.maxItems(20)).annotations({ description: "Hazard class names; any makes the truck placarded" })),
  permit_number: Schema.optional(Schema.String.pipe(Schema.maxLength(100))),
  profile_id: Schema.optional(Schema.String.pipe(Schema.maxLength(100)).annotations({ description: "Saved profiles are not offered yet; sending one is a 400" })),
  hos: Schema.optional(Hos)
})

const Enrichment = Schema.Struct({
  exclude_types: Schema.optional(Schema.Array(oneOf(WARNING_TYPES, "Warning type")).pipe(Schema.maxItems(20))),
  min_severity: Schema.optional(oneOf(SEVERITIES, "Lowest severity returned")),
  buffer_m: Schema.optional(num(10, 1000, "Distance from the route within which hazards count; default 100")),
  clearance_pad_m: Schema.optional(num(0, 1, "Added to height_m before clearances are compared; default 0.15")),
  skip_temporal_filter: Schema.optional(Schema.Boolean.annotations({ description: "Keep hazards not in force at the projected arrival" })),
  max_distance_m: Schema.optional(num(0, 10_000_000, "Only warnings up to this far along the route")),
  include_features: Schema.optional(Schema.Array(oneOf(ROUTE_FEATURE_TYPES, "Feature type")).pipe(Schema.maxItems(10)))
})

export const RouteRequest = Schema.Struct({
  origin: Point,
  destination: Point,
  waypoints: Schema.optional(Schema.Array(Point).pipe(Schema.maxItems(25))),
  departure_time: Schema.optional(DateTime.pipe(Schema.filter((s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT/.test(s), { message: () => "must be an RFC 3339 date-time" }))),
  truck: Truck,
  alternatives: Schema.optional(int(0, 3, "Extra routes, 0 to 3; default 0")),
  avoid: Schema.optional(Schema.Array(oneOf(AVOID_VALUES, "What to avoid")).pipe(Schema.maxItems(10))),
  include: Schema.optional(Schema.Array(oneOf(INCLUDE_VALUES, "Optional parts of the answer")).pipe(Schema.maxItems(10))),
  currency: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Z]{3}$/, { message: () => "must be an ISO 4217 code such as USD" }))),
  enrichment: Schema.optional(Enrichment),
  cargo: Schema.optional(Schema.Struct({ hazmat_class: Schema.optional(Schema.String.pipe(Schema.maxLength(60))) })),
  customer_route_id: Schema.optional(Schema.String.pipe(Schema.maxLength(200)).annotations({ description: "Echoed back unchanged" }))
}).annotations({ identifier: "RouteRequest" })
export type RouteRequest = typeof RouteRequest.Type

const LineString = Schema.Struct({ type: Schema.Literal("LineString"), coordinates: Schema.Array(Schema.Array(Schema.Number)) })
const Geometry = Schema.Struct({ type: Schema.String, coordinates: Schema.Unknown })

const Money = Schema.Struct({ currency: Schema.String, value: Schema.Number })
export const RouteWarning = Schema.Struct({
  type: Schema.Literal(...WARNING_TYPES),
  severity: Schema.Literal(...SEVERITIES),
  title: Schema.String,
  description: Schema.String,
  distance_along_route_m: Schema.Number,
  projected_arrival_time: DateTime,
  source: Schema.String,
  source_id: Schema.String,
  geometry: Geometry,
  properties: OpenObject,
  status: Schema.optional(Schema.Literal("open", "closed", "unknown")),
  as_of: Schema.optional(NullableText)
}).annotations({ identifier: "RouteWarning" })

const SuggestedStop = Schema.Struct({
  id: Schema.String,
  type: Schema.Literal("truck_parking", "truck_rest_area", "rest_area"),
  name: Schema.String,
  distance_along_route_m: Schema.Number,
  capacity: Schema.NullOr(Schema.Number),
  available_spots: Schema.optional(Schema.Number.annotations({ description: "Live free spaces where the feed publishes a count (0 is full; never given for unknown)" })),
  as_of: Schema.optional(NullableText),
  geometry: Geometry
}).annotations({ identifier: "SuggestedStop" })

export const HosStop = Schema.Struct({
  reason: Schema.Literal("break_required", "drive_limit", "duty_window", "cycle_limit"),
  distance_along_route_m: Schema.Number.annotations({ description: "Where the driver stops: the suggested stop closest to the deadline, else where the hours run out" }),
  projected_time: DateTime.annotations({ description: "When the driver reaches that stop" }),
  legal_deadline: DateTime.annotations({ description: "When the hours run out: the latest legal moment to be stopped" }),
  deadline_distance_along_route_m: Schema.Number.annotations({ description: "Where the hours run out" }),
  rest_s: Schema.Number.annotations({ description: "How long the stop lasts: the break, the daily rest or a cycle restart" }),
  feasible: Schema.optional(Schema.Boolean.annotations({ description: "Whether any stop is reachable before the deadline; left out when the parking lookup did not run" })),
  suggested_stops: Schema.Array(SuggestedStop)
}).annotations({ identifier: "HosStop" })

export const Route = Schema.Struct({
  summary: Schema.Struct({
    distance_m: Schema.Number,
    duration_s: Schema.Number,
    has_tolls: Schema.Boolean,
    toll_costs: Schema.optional(Schema.Array(Money)),
    mileage_by_state: Schema.optional(Schema.Array(Schema.Struct({ jurisdiction: Schema.String, distance_m: Schema.Number, distance_mi: Schema.Number })))
  }),
  geometry: LineString,
  sections: Schema.Array(Schema.Struct({
    distance_m: Schema.Number, duration_s: Schema.Number, summary: Schema.String,
    tolls: Schema.optional(Schema.Array(Schema.Struct({ system: Schema.String, fares: Schema.Array(Schema.Struct({ name: Schema.String, price: Schema.optional(Money) })) })))
  })),
  warnings: Schema.Array(RouteWarning),
  features: Schema.Array(Schema.Struct({
    id: Schema.String, type: Schema.String, name: Schema.String, distance_along_route_m: Schema.Number, capacity: Schema.NullOr(Schema.Number), geometry: Geometry
  })),
  hos: Schema.optional(Schema.Array(HosStop).annotations({ description: "Hours-of-service stops, primary route only, when truck.hos is sent" }))
})

export const RouteResponse = Schema.Struct({
  route_id: Schema.String,
  routes: Schema.Array(Route),
  hos_ruleset: Schema.optional(Schema.Literal(...HOS_RULESETS).annotations({ description: "The hours-of-service rules hos[] applies (DEFAULT_HOS_RULESET when the request's is empty)" })),
  customer_route_id: Schema.optional(Schema.String),
  engine: Schema.String.annotations({ description: "builtin or valhalla" }),
  attribution: Schema.Array(Schema.String).annotations({ description: "Credits of the road data the routes were computed on" }),
  avoided: Schema.Array(Schema.Struct({ warning_type: Schema.String, source_id: Schema.String, title: Schema.String }))
    .annotations({ description: "Live closures and restrictions the route was moved off" }),
  departure_time: DateTime,
  computed_at: DateTime,
  hazard_count: Count
}).annotations({ identifier: "RouteResponse" })
