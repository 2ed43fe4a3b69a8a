import { Schema } from "effect"
import { ALL_HOS_CYCLES, HOS_RULESETS, SLEEPER_SPLITS } from "../hos/rulesets.js"
import { isTimeZone } from "../hos/dutyCalendar.js"
import { DateTime } from "../../schema/jsonShapes.js"

const num = (min: number, max: number, description: string) =>
  Schema.Number.pipe(
    Schema.filter((n) => Number.isFinite(n) && n >= min && n <= max, {
      message: () => `must be a number from ${min} to ${max}`
    })
  ).annotations({ description, jsonSchema: { type: "number", minimum: min, maximum: max } })
const int = (min: number, max: number, description: string) =>
  Schema.Number.pipe(
    Schema.filter((n) => Number.isInteger(n) && n >= min && n <= max, {
      message: () => `must be a whole number from ${min} to ${max}`
    })
  ).annotations({ description, jsonSchema: { type: "integer", minimum: min, maximum: max } })
const oneOf = <const L extends ReadonlyArray<string>>(values: L, description: string, extra = "") =>
  Schema.String.pipe(
    Schema.filter((s): s is L[number] => values.includes(s), {
      message: () => `must be one of ${values.join(", ")}${extra}`
    })
  ).annotations({ description, jsonSchema: { type: "string", enum: [...values] } })

export const Point = Schema.Struct({ lat: num(-90, 90, "Latitude"), lng: num(-180, 180, "Longitude") })

/** `avoid` spellings: SPEC shows toll_road, ferry, tunnel; another listing spells them plural. */
export const AVOID_ALIASES = {
  toll_road: "toll_road",
  toll_roads: "toll_road",
  tolls: "toll_road",
  ferry: "ferry",
  ferries: "ferry",
  tunnel: "tunnel",
  tunnels: "tunnel"
} as const satisfies Record<string, "toll_road" | "ferry" | "tunnel">
export const AVOID_VALUES = Object.keys(AVOID_ALIASES) as Array<keyof typeof AVOID_ALIASES>
export const INCLUDE_VALUES = ["tolls", "mileage_by_state", "toll_alternative", "polyline", "summary"] as const
export const WARNING_TYPES = [
  "bridge_clearance",
  "truck_restriction",
  "weight_restriction",
  "rail_crossing",
  "traffic_event",
  "future_construction",
  "special_event",
  "weigh_station",
  "inspection_station",
  "alert",
  "weather"
] as const
export const SEVERITIES = ["info", "warning", "critical"] as const
export const ROUTE_FEATURE_TYPES = [
  "truck_parking",
  "truck_rest_areas",
  "rest_areas",
  "service_plazas",
  "weigh_stations",
  "inspection_stations",
  "fuel_stations",
  "ev_charging"
] as const

const Hos = Schema.Struct({
  ruleset: Schema.optional(
    Schema.String.pipe(
      Schema.filter((s) =>
        s === "" || (HOS_RULESETS as ReadonlyArray<string>).includes(s)
          ? true
          : s === "aetr"
            ? "aetr is planned, not available yet"
            : `must be one of ${HOS_RULESETS.join(", ")}`
      )
    ).annotations({
      description: "us, canada_south, canada_north or eu; aetr is planned, not available",
      jsonSchema: { type: "string", enum: ["", ...HOS_RULESETS] }
    })
  ),
  drive_remaining_s: Schema.optional(int(0, 86_400 * 8, "Seconds of driving left today")),
  duty_remaining_s: Schema.optional(int(0, 86_400 * 8, "Seconds of the duty window left")),
  since_break_s: Schema.optional(int(0, 86_400 * 8, "Seconds left before a break is required")),
  elapsed_remaining_s: Schema.optional(int(0, 86_400 * 8, "Canada: seconds of the elapsed window left")),
  cycle_remaining_s: Schema.optional(
    int(
      0,
      86_400 * 16,
      "Seconds of the cycle left (EU: of this fixed week's 56 h); cycle caps are planned only when it is sent"
    )
  ),
  day_drive_remaining_s: Schema.optional(
    int(0, 86_400, "canada_south: seconds of driving left in the current day (13 h a day)")
  ),
  day_duty_remaining_s: Schema.optional(
    int(0, 86_400, "canada_south: seconds on duty left in the current day (14 h a day)")
  ),
  before_24h_off_remaining_s: Schema.optional(
    int(
      0,
      86_400 * 16,
      "Canada cycle 2: on-duty seconds left before 24 consecutive hours off are due (70 h, north 80 h)"
    )
  ),
  fortnight_remaining_s: Schema.optional(
    int(0, 86_400 * 16, "eu: driving seconds left of 90 h over this and last fixed week")
  ),
  extended_days_left: Schema.optional(int(0, 2, "eu with extended_days: 10 h days left this fixed week (default 2)")),
  reduced_rests_left: Schema.optional(
    int(0, 3, "eu with reduced_rests: 9 h daily rests left before the next weekly rest (default 3)")
  ),
  cycle: Schema.optional(oneOf(ALL_HOS_CYCLES, "us: 70_8 (default) or 60_7; Canada: cycle_1 (default) or cycle_2")),
  sleeper_berth: Schema.optional(
    oneOf(SLEEPER_SPLITS, "us: take the 10 h rest as a sleeper-berth split, 8 h + 2 h or 7 h + 3 h")
  ),
  extended_days: Schema.optional(
    Schema.Boolean.annotations({ description: "eu: drive 10 h on up to two days a week" })
  ),
  reduced_rests: Schema.optional(
    Schema.Boolean.annotations({ description: "eu: take 9 h daily rests up to three times between weekly rests" })
  ),
  home_terminal_tz: Schema.optional(
    Schema.String.pipe(
      Schema.maxLength(64),
      Schema.filter((z) => isTimeZone(z) || "must be an IANA time zone such as America/Toronto")
    ).annotations({ description: "The zone the driver's day (Canada) and week (EU) are counted in; default UTC" })
  ),
  day_start_hour: Schema.optional(
    int(
      0,
      23,
      "The hour the carrier designates as the start of the driver's day (Canada) and week (EU, on Monday); default 0"
    )
  )
})

const TRUCK_KINDS = ["tractor", "straight", "box"] as const
/** The truck's own fields, shared by a request and a stored profile. */
const truckFields = {
  length_m: Schema.optional(num(2, 60, "Length, metres")),
  width_m: Schema.optional(num(1, 5, "Width, metres")),
  axle_count: Schema.optional(int(2, 13, "Axles")),
  hazardous: Schema.optional(
    Schema.Array(Schema.String.pipe(Schema.maxLength(60)))
      .pipe(Schema.maxItems(20))
      .annotations({ description: "Hazard class names; any makes the truck placarded" })
  ),
  permit_number: Schema.optional(Schema.String.pipe(Schema.maxLength(100))),
  max_speed_kmh: Schema.optional(
    num(40, 130, "The truck's governed top speed, km/h; caps every section's planning speed; default 105")
  )
}
const kind = oneOf(TRUCK_KINDS, "Vehicle kind")
const weight = num(0.5, 200, "Gross weight, metric tonnes")
const height = num(1, 6, "Height, metres")
const REQUIRED_TRUCK = ["profile", "weight_t", "height_m"] as const

/** A route request's truck: whole inline, or any fields over a saved profile (inline wins per field). */
export const Truck = Schema.Struct({
  profile: Schema.optional(kind),
  weight_t: Schema.optional(weight),
  height_m: Schema.optional(height),
  ...truckFields,
  profile_id: Schema.optional(
    Schema.String.pipe(Schema.maxLength(100)).annotations({
      description: "A saved truck profile (tpf_…); the fields sent here are merged over it, inline winning per field"
    })
  ),
  hos: Schema.optional(Hos)
}).pipe(
  Schema.filter((t) =>
    t.profile_id !== undefined
      ? true
      : REQUIRED_TRUCK.filter((k) => t[k] === undefined).map((k) => ({
          path: [k],
          message: `is required (or send truck.profile_id naming a saved profile that has it)`
        }))
  )
)

/** A truck with every required field: inline, or a profile merged with the inline fields. */
export type ResolvedTruck = Omit<typeof Truck.Type, (typeof REQUIRED_TRUCK)[number]> & {
  readonly profile: (typeof TRUCK_KINDS)[number]
  readonly weight_t: number
  readonly height_m: number
}

const perRequest = (name: string) =>
  Schema.optional(
    Schema.Unknown.pipe(
      Schema.filter(
        () => `is a counter for one request; a profile stores only hos.ruleset (send ${name} with the route request)`
      )
    )
  ).annotations({ description: "Refused: counters are per request" })

/** A truck as a saved profile keeps it: the vehicle and, of hours of service, only the ruleset. */
export const StoredTruck = Schema.Struct({
  profile: kind,
  weight_t: weight,
  height_m: height,
  ...truckFields,
  hos: Schema.optional(
    Schema.Struct({
      ruleset: Schema.optional(
        Schema.Literal(...HOS_RULESETS).annotations({
          description: "The driver's regime; counters are sent per request"
        })
      ),
      drive_remaining_s: perRequest("truck.hos.drive_remaining_s"),
      duty_remaining_s: perRequest("truck.hos.duty_remaining_s"),
      since_break_s: perRequest("truck.hos.since_break_s"),
      elapsed_remaining_s: perRequest("truck.hos.elapsed_remaining_s"),
      cycle_remaining_s: perRequest("truck.hos.cycle_remaining_s")
    })
  )
}).annotations({ identifier: "StoredTruck" })

const ProfileName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({
  description: "Your name for the profile"
})
export const TruckProfileInput = Schema.Struct({ name: ProfileName, truck: StoredTruck }).annotations({
  identifier: "TruckProfileInput"
})
/** An update: the fields sent replace the stored ones (the truck's per field); null clears an optional truck field. */
export const TruckProfilePatch = Schema.Struct({
  name: Schema.optional(ProfileName),
  truck: Schema.optional(
    Schema.Struct({
      profile: Schema.optional(kind),
      weight_t: Schema.optional(weight),
      height_m: Schema.optional(height),
      length_m: Schema.optional(Schema.NullOr(num(2, 60, "Length, metres"))),
      width_m: Schema.optional(Schema.NullOr(num(1, 5, "Width, metres"))),
      axle_count: Schema.optional(Schema.NullOr(int(2, 13, "Axles"))),
      hazardous: Schema.optional(
        Schema.NullOr(Schema.Array(Schema.String.pipe(Schema.maxLength(60))).pipe(Schema.maxItems(20)))
      ),
      permit_number: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(100)))),
      max_speed_kmh: Schema.optional(Schema.NullOr(num(40, 130, "Governed top speed, km/h"))),
      hos: Schema.optional(Schema.NullOr(StoredTruck.fields.hos.from))
    })
  )
}).annotations({ identifier: "TruckProfilePatch" })
export const TruckProfile = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  truck: StoredTruck,
  created_at: DateTime,
  updated_at: DateTime
}).annotations({ identifier: "TruckProfile" })
export const TruckProfileList = Schema.Struct({ data: Schema.Array(TruckProfile) }).annotations({
  identifier: "TruckProfileList"
})

const Enrichment = Schema.Struct({
  exclude_types: Schema.optional(Schema.Array(oneOf(WARNING_TYPES, "Warning type")).pipe(Schema.maxItems(20))),
  min_severity: Schema.optional(oneOf(SEVERITIES, "Lowest severity returned")),
  buffer_m: Schema.optional(num(10, 1000, "Distance from the route within which hazards count; default 100")),
  clearance_pad_m: Schema.optional(num(0, 1, "Added to height_m before clearances are compared; default 0.15")),
  skip_temporal_filter: Schema.optional(
    Schema.Boolean.annotations({ description: "Keep hazards not in force at the projected arrival" })
  ),
  max_distance_m: Schema.optional(num(0, 10_000_000, "Only warnings up to this far along the route")),
  include_features: Schema.optional(Schema.Array(oneOf(ROUTE_FEATURE_TYPES, "Feature type")).pipe(Schema.maxItems(10)))
})

export const RouteRequest = Schema.Struct({
  origin: Point,
  destination: Point,
  waypoints: Schema.optional(Schema.Array(Point).pipe(Schema.maxItems(25))),
  departure_time: Schema.optional(
    DateTime.pipe(
      Schema.filter((s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT/.test(s), {
        message: () => "must be an RFC 3339 date-time"
      })
    )
  ),
  truck: Truck,
  alternatives: Schema.optional(int(0, 3, "Extra routes, 0 to 3; default 0")),
  avoid: Schema.optional(Schema.Array(oneOf(AVOID_VALUES, "What to avoid")).pipe(Schema.maxItems(10))),
  include: Schema.optional(
    Schema.Array(oneOf(INCLUDE_VALUES, "Optional parts of the answer")).pipe(Schema.maxItems(10))
  ),
  currency: Schema.optional(
    Schema.String.pipe(Schema.pattern(/^[A-Z]{3}$/, { message: () => "must be an ISO 4217 code such as USD" }))
  ),
  toll_payment: Schema.optional(
    oneOf(
      ["transponder", "cash"] as const,
      "With include: tolls, how the truck pays where a tariff tells them apart (E-ZPass, 407 transponder, prepaid bridge accounts); default transponder"
    )
  ),
  enrichment: Schema.optional(Enrichment),
  cargo: Schema.optional(Schema.Struct({ hazmat_class: Schema.optional(Schema.String.pipe(Schema.maxLength(60))) })),
  customer_route_id: Schema.optional(
    Schema.String.pipe(Schema.maxLength(200)).annotations({ description: "Echoed back unchanged" })
  )
}).annotations({ identifier: "RouteRequest" })
export type RouteRequest = typeof RouteRequest.Type

/** The truck the route was planned for: the saved profile with the inline fields merged over it. */
export const ResolvedTruckSchema = Schema.Struct({
  profile: kind,
  weight_t: weight,
  height_m: height,
  ...truckFields,
  profile_id: Schema.optional(Schema.String),
  hos: Schema.optional(Hos)
}).annotations({ identifier: "ResolvedTruck" })
