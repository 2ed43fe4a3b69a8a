import { Schema } from "effect"
import { HOS_RULESETS } from "../hos/rulesets.js"
import { Count, DateTime, NullableText, OpenObject } from "../../schema/jsonShapes.js"
import { Point, WARNING_TYPES, SEVERITIES, RouteRequest, ResolvedTruckSchema } from "./schemas.js"

/** The routing answers' Schemas: routes with their warnings, stops and tolls, batches, saved routes. */
const LineString = Schema.Struct({
  type: Schema.Literal("LineString"),
  coordinates: Schema.Array(Schema.Array(Schema.Number))
})
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
  available_spots: Schema.optional(
    Schema.Number.annotations({
      description: "Live free spaces where the feed publishes a count (0 is full; never given for unknown)"
    })
  ),
  as_of: Schema.optional(NullableText),
  expected_available: Schema.optional(
    Schema.Struct({
      p10: Schema.Number,
      p50: Schema.Number.annotations({ description: "The median forecast of free spaces at arrival" }),
      p90: Schema.Number,
      p_full: Schema.Number.annotations({ description: "The chance (0 to 1) of no free space at arrival" }),
      at: DateTime.annotations({ description: "The projected arrival the forecast is for" })
    }).annotations({
      description:
        "Free spaces forecast for the projected arrival, where the parking forecaster knows the lot (GET /features/{id}/forecast)"
    })
  ),
  note: Schema.optional(
    Schema.String.annotations({ description: "Why the lot is listed where it is, when it is likely full at arrival" })
  ),
  geometry: Geometry
}).annotations({ identifier: "SuggestedStop" })

export const HosStop = Schema.Struct({
  ruleset: Schema.Literal(...HOS_RULESETS).annotations({
    description: "The rules the driver is under at the stop: those of the country the truck is in"
  }),
  reason: Schema.Literal("break_required", "drive_limit", "duty_window", "cycle_limit"),
  distance_along_route_m: Schema.Number.annotations({
    description: "Where the driver stops: the suggested stop closest to the deadline, else where the hours run out"
  }),
  projected_time: DateTime.annotations({ description: "When the driver reaches that stop" }),
  legal_deadline: DateTime.annotations({
    description: "When the hours run out: the latest legal moment to be stopped"
  }),
  deadline_distance_along_route_m: Schema.Number.annotations({ description: "Where the hours run out" }),
  rest_s: Schema.Number.annotations({
    description: "How long the stop lasts: the break, the daily rest or a cycle restart"
  }),
  rest_kind: Schema.Literal(
    "break",
    "daily_rest",
    "reduced_daily_rest",
    "split_berth",
    "split_off",
    "day_end",
    "off_24h",
    "cycle_reset",
    "weekly_rest"
  ).annotations({
    description:
      "What the stop is: a break; the daily rest (reduced in the EU); one part of a US sleeper-berth split; off until a Canadian day whose limits are spent ends; 24 h off (Canada cycle 2); a cycle reset or restart; the EU weekly rest"
  }),
  feasible: Schema.optional(
    Schema.Boolean.annotations({
      description: "Whether any stop is reachable before the deadline; left out when the parking lookup did not run"
    })
  ),
  suggested_stops: Schema.Array(SuggestedStop)
}).annotations({ identifier: "HosStop" })

export const Route = Schema.Struct({
  summary: Schema.Struct({
    distance_m: Schema.Number,
    duration_s: Schema.Number.annotations({ description: "Driving time, seconds" }),
    rest_duration_s: Schema.Number.annotations({
      description:
        "Hours-of-service breaks and rests in the trip, seconds: those of hos[] when truck.hos is sent, else a fresh driver's under the deployment's default ruleset"
    }),
    trip_duration_s: Schema.Number.annotations({ description: "Driving plus rests, seconds" }),
    arrival_time: DateTime.annotations({ description: "departure_time plus trip_duration_s" }),
    has_tolls: Schema.Boolean,
    toll_costs: Schema.optional(Schema.Array(Money)),
    mileage_by_state: Schema.optional(
      Schema.Array(
        Schema.Struct({ jurisdiction: Schema.String, distance_m: Schema.Number, distance_mi: Schema.Number })
      )
    )
  }),
  geometry: LineString,
  border_crossings: Schema.Array(
    Schema.Struct({
      name: Schema.String.annotations({
        description: "The port of entry (e.g. Blue Water Bridge), else the roads either side"
      }),
      from_region: Schema.String,
      to_region: Schema.String,
      distance_along_route_m: Schema.Number,
      projected_time: DateTime.annotations({ description: "When the truck reaches it, the rests before counted" }),
      geometry: Schema.Struct({
        type: Schema.Literal("Point"),
        coordinates: Schema.Tuple(Schema.Number, Schema.Number)
      }),
      hos_ruleset: Schema.optional(
        Schema.Literal(...HOS_RULESETS).annotations({
          description: "With truck.hos: the rules the driver works under from here on"
        })
      )
    }).annotations({ identifier: "BorderCrossing" })
  ).annotations({ description: "Every passage between the US and Canada, in order; empty when there is none" }),
  sections: Schema.Array(
    Schema.Struct({
      distance_m: Schema.Number,
      duration_s: Schema.Number,
      summary: Schema.String,
      tolls: Schema.optional(
        Schema.Array(
          Schema.Struct({
            system: Schema.String,
            fares: Schema.Array(
              Schema.Struct({
                name: Schema.String.annotations({
                  description: "The class applied (and payment, where the tariff tells them apart)"
                }),
                price: Schema.optional(
                  Money.annotations({ description: "Missing means not priced (see unpriced_reason), never free" })
                ),
                payment: Schema.optional(Schema.Literal("transponder", "cash")),
                unpriced_reason: Schema.optional(
                  Schema.String.annotations({
                    description:
                      "Why no price is given: the tariff is not on file, or the passage was priced on the section before"
                  })
                ),
                as_of: Schema.optional(
                  Schema.String.annotations({
                    description:
                      "With a price: the date the rate took effect, as its source publication gives it (YYYY-MM-DD)"
                  })
                ),
                superseded: Schema.optional(
                  Schema.String.annotations({
                    description:
                      "With a price: a later schedule is known whose rate is not on file; the price is the older rate of as_of, likely below today's"
                  })
                )
              })
            )
          })
        )
      )
    })
  ),
  warnings: Schema.Array(RouteWarning),
  features: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      type: Schema.String,
      name: Schema.String,
      distance_along_route_m: Schema.Number,
      capacity: Schema.NullOr(Schema.Number),
      geometry: Geometry
    })
  ),
  hos: Schema.optional(
    Schema.Array(HosStop).annotations({
      description: "Hours-of-service stops, primary route only, when truck.hos is sent"
    })
  )
})

const routeResponseFields = {
  route_id: Schema.String.annotations({
    description: "Refetch it for 30 minutes at /routing/route/saved/{route_id}, or persist it"
  }),
  routes: Schema.Array(Route),
  hos_ruleset: Schema.optional(
    Schema.Literal(...HOS_RULESETS).annotations({
      description: "The hours-of-service rules hos[] applies (DEFAULT_HOS_RULESET when the request's is empty)"
    })
  ),
  customer_route_id: Schema.optional(Schema.String),
  engine: Schema.String.annotations({ description: "builtin or valhalla" }),
  attribution: Schema.Array(Schema.String).annotations({
    description: "Credits of the road data the routes were computed on"
  }),
  avoided: Schema.Array(Schema.Struct({ warning_type: Schema.String, source_id: Schema.String, title: Schema.String }))
    .annotations({
      description:
        "What the route was moved around: live closures and restrictions from agency feeds (source_id their id), and limits the road network holds (source_id where the limit comes from: a table row, an NBI structure, an OSM way)"
    })
    .annotations({ description: "Live closures and restrictions the route was moved off" }),
  departure_time: DateTime,
  computed_at: DateTime,
  hazard_count: Count,
  resolved_truck: ResolvedTruckSchema
}
export const RouteResponse = Schema.Struct(routeResponseFields).annotations({ identifier: "RouteResponse" })

/** Routes per batch call: about ten seconds of planning, two at a time, on one API worker. */
export const ROUTE_BATCH_MAX = 100

export const RouteBatchRequest = Schema.Struct({
  routes: Schema.Array(RouteRequest)
    .pipe(Schema.minItems(1), Schema.maxItems(ROUTE_BATCH_MAX))
    .annotations({ description: `1 to ${ROUTE_BATCH_MAX} route requests, each as POST /routing/route takes it` })
}).annotations({ identifier: "RouteBatchRequest" })

const BatchItem = Schema.Struct({
  index: Count.annotations({ description: "Position of the request in routes[]" }),
  status: Schema.Number.annotations({ description: "The HTTP status POST /routing/route would have answered it with" }),
  customer_route_id: Schema.optional(Schema.String),
  route_id: Schema.optional(
    Schema.String.annotations({
      description:
        "The whole answer, warnings and all, is at GET /routing/route/saved/{route_id} for 30 minutes (no routing call)"
    })
  ),
  summary: Schema.optional(Route.fields.summary.annotations({ description: "The primary route's summary" })),
  hazard_count: Schema.optional(Count),
  critical_count: Schema.optional(
    Count.annotations({ description: "Warnings of severity critical on the primary route" })
  ),
  avoided_count: Schema.optional(
    Count.annotations({ description: "Closures, restrictions and network limits the route was moved around" })
  ),
  hos_stops: Schema.optional(
    Count.annotations({ description: "Rests the hours-of-service plan needs on the primary route (with truck.hos)" })
  ),
  error: Schema.optional(Schema.String),
  code: Schema.optional(
    Schema.String.annotations({
      description: "A plan gate's code (routing_quota_exhausted once the month's calls run out part way)"
    })
  ),
  docs_url: Schema.optional(Schema.String)
})

export const RouteBatchResponse = Schema.Struct({
  count: Count,
  succeeded: Count,
  failed: Count,
  calls: Count.annotations({
    description:
      "Routing calls charged: one per route planned (two with toll_alternative); a failed route is not charged"
  }),
  data: Schema.Array(BatchItem)
}).annotations({ identifier: "RouteBatchResponse" })

export const SavedRouteResponse = Schema.Struct({
  ...routeResponseFields,
  saved: Schema.Struct({
    state: Schema.Literal("saved", "persisted").annotations({
      description: "saved: kept 30 minutes from the call; persisted: kept until deleted"
    }),
    created_at: DateTime,
    expires_at: Schema.NullOr(DateTime).annotations({
      description: "When a saved route stops being retrievable; null once persisted"
    }),
    persisted_at: Schema.NullOr(DateTime),
    monitored: Schema.Boolean.annotations({ description: "New critical warnings are sent as route.warning webhooks" }),
    evaluated_at: DateTime.annotations({ description: "When these warnings were worked out (now)" })
  })
}).annotations({ identifier: "SavedRouteResponse" })

export const PersistInput = Schema.Struct({
  monitor: Schema.optional(
    Schema.Boolean.annotations({ description: "Send route.warning webhooks for new critical warnings; default true" })
  )
}).annotations({ identifier: "PersistInput" })

const Slots = Schema.Struct({ used: Count, limit: Count }).annotations({ description: "The plan's saved-route slots" })
export const PersistResponse = Schema.Struct({
  route_id: Schema.String,
  state: Schema.Literal("persisted"),
  persisted_at: DateTime,
  monitored: Schema.Boolean,
  slots: Slots
}).annotations({ identifier: "PersistResponse" })

export const PersistedRouteList = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      route_id: Schema.String,
      customer_route_id: Schema.NullOr(Schema.String),
      created_at: DateTime,
      persisted_at: DateTime,
      monitored: Schema.Boolean,
      summary: Schema.Struct({
        origin: Point,
        destination: Point,
        distance_m: Schema.Number,
        duration_s: Schema.Number
      })
    })
  ),
  slots: Slots
}).annotations({ identifier: "PersistedRouteList" })
