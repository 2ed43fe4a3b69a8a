import { HttpBody, HttpClient } from "@effect/platform"
import polyline from "@mapbox/polyline"
import { Duration, Effect, Layer, Schema } from "effect"
import { haversineM } from "../../../geo/distance.js"
import {
  type EngineRequest,
  type EngineRoute,
  type EngineSection,
  EngineUnavailable,
  type Exclusion,
  RouteNotFound,
  RoutingEngine,
  type RoutingEngineShape,
  standingStill
} from "../RoutingEngine.js"

const TIMEOUT = Duration.seconds(15)
/** Valhalla error codes that mean "no route", not "engine broken" (its documented 1xx/4xx codes). */
const NO_ROUTE_CODES = new Set([170, 171, 172, 442, 443])
const CREDIT = "Routing: Valhalla (valhalla.github.io) on OpenStreetMap data, © OpenStreetMap contributors (ODbL)"

const Maneuver = Schema.Struct({
  length: Schema.Number,
  time: Schema.Number,
  begin_shape_index: Schema.Number,
  end_shape_index: Schema.Number,
  street_names: Schema.optional(Schema.Array(Schema.String)),
  toll: Schema.optional(Schema.Boolean)
})
const Trip = Schema.Struct({
  legs: Schema.Array(
    Schema.Struct({
      shape: Schema.String,
      maneuvers: Schema.Array(Maneuver),
      summary: Schema.Struct({ length: Schema.Number, time: Schema.Number })
    })
  ),
  summary: Schema.Struct({ length: Schema.Number, time: Schema.Number })
})
/** The documented /route answer (units kilometres): the trip, and `alternates[]` when asked for. */
const RouteAnswer = Schema.Struct({
  trip: Trip,
  alternates: Schema.optional(Schema.Array(Schema.Struct({ trip: Trip })))
})
const ErrorAnswer = Schema.Struct({ error_code: Schema.Number, error: Schema.String })

/** A square ring around an exclusion, as Valhalla's exclude_polygons takes them ([lon, lat]). */
const square = (x: Exclusion): Array<[number, number]> => {
  const dLat = x.radius_m / 111_320
  const dLng = dLat / Math.max(0.01, Math.cos((x.lat * Math.PI) / 180))
  return [
    [x.lng - dLng, x.lat - dLat],
    [x.lng + dLng, x.lat - dLat],
    [x.lng + dLng, x.lat + dLat],
    [x.lng - dLng, x.lat + dLat],
    [x.lng - dLng, x.lat - dLat]
  ]
}

/** The request body: truck costing with the profile's dimensions, closures as exclude_polygons. */
export const valhallaBody = (req: EngineRequest) => ({
  locations: req.points.map((p) => ({ lat: p.lat, lon: p.lng, type: "break" })),
  costing: "truck",
  costing_options: {
    truck: {
      height: req.truck.height_m,
      weight: req.truck.weight_t,
      ...(req.truck.width_m !== undefined ? { width: req.truck.width_m } : {}),
      ...(req.truck.length_m !== undefined ? { length: req.truck.length_m } : {}),
      ...(req.truck.axle_count !== undefined ? { axle_count: req.truck.axle_count } : {}),
      hazmat: req.truck.hazmat,
      ...(req.truck.max_speed_kmh !== undefined ? { top_speed: req.truck.max_speed_kmh } : {}),
      ...(req.avoid.toll_road ? { use_tolls: 0 } : {}),
      ...(req.avoid.ferry ? { use_ferry: 0 } : {})
    }
  },
  ...(req.exclusions.length > 0 ? { exclude_polygons: req.exclusions.map(square) } : {}),
  ...(req.alternatives > 0 ? { alternates: req.alternatives } : {}),
  units: "kilometers",
  directions_type: "none"
})

/** A trip → our route: legs' polyline6 shapes joined, maneuvers as sections, time interpolated per point. */
export const fromTrip = (trip: typeof Trip.Type): EngineRoute => {
  const coordinates: Array<[number, number]> = []
  const along_m: Array<number> = []
  const along_s: Array<number> = []
  const sections: Array<EngineSection> = []
  let [m, s] = [0, 0]
  for (const leg of trip.legs) {
    const shape = polyline.decode(leg.shape, 6).map(([lat, lng]) => [lng, lat] as [number, number])
    const offset = coordinates.length === 0 ? 0 : coordinates.length - 1
    for (const mv of leg.maneuvers) {
      if (mv.end_shape_index <= mv.begin_shape_index) continue
      // spread the maneuver's time over its points by distance
      const pts = shape.slice(mv.begin_shape_index, mv.end_shape_index + 1)
      const legM = pts.slice(1).reduce((t, p, i) => t + haversineM(pts[i][1], pts[i][0], p[1], p[0]), 0)
      const secPerM = legM > 0 ? mv.time / legM : 0
      const mPerM = legM > 0 ? (mv.length * 1000) / legM : 0
      const from = Math.max(0, offset + mv.begin_shape_index)
      if (coordinates.length === 0) {
        coordinates.push(pts[0])
        along_m.push(0)
        along_s.push(0)
      }
      for (let i = 1; i < pts.length; i++) {
        const d = haversineM(pts[i - 1][1], pts[i - 1][0], pts[i][1], pts[i][0])
        m += d * mPerM
        s += d * secPerM
        coordinates.push(pts[i])
        along_m.push(m)
        along_s.push(s)
      }
      const summary = mv.street_names?.join(" / ") || "unnamed road"
      const toll = mv.toll ? "toll" : null
      const last = sections.at(-1)
      if (last && last.summary === summary && last.toll === toll) {
        sections[sections.length - 1] = {
          ...last,
          to_index: coordinates.length - 1,
          distance_m: m - along_m[last.from_index],
          duration_s: s - along_s[last.from_index]
        }
      } else {
        sections.push({
          summary,
          toll,
          from_index: from,
          to_index: coordinates.length - 1,
          distance_m: m - along_m[from],
          duration_s: s - along_s[from]
        })
      }
    }
  }
  // origin = destination: Valhalla's shape holds the one place
  const place =
    coordinates[0] ?? polyline.decode(trip.legs[0]?.shape ?? "", 6).map(([lat, lng]) => [lng, lat] as const)[0]
  if (coordinates.length < 2 && place)
    return { ...standingStill(place, ""), distance_m: 0, duration_s: 0, sections: [] }
  const segment_keys = coordinates.slice(1).map(() => "")
  return {
    coordinates,
    along_m,
    along_s,
    distance_m: trip.summary.length * 1000,
    duration_s: trip.summary.time,
    sections,
    segment_keys
  }
}

/**
 * Valhalla's /route with truck costing (ROUTING_ENGINE=valhalla, VALHALLA_URL): for a deployment
 * that needs street-level routing over a continent-size OSM extract.
 */
export const makeValhallaEngine = (baseUrl: string, client: HttpClient.HttpClient): RoutingEngineShape => ({
  name: "valhalla",
  route: (req) =>
    Effect.gen(function* () {
      const res = yield* client.post(`${baseUrl.replace(/\/$/, "")}/route`, {
        body: HttpBody.unsafeJson(valhallaBody(req)),
        headers: { accept: "application/json" }
      })
      const json = yield* res.json
      if (res.status >= 400) {
        const err = Schema.decodeUnknownOption(ErrorAnswer)(json)
        if (err._tag === "Some" && NO_ROUTE_CODES.has(err.value.error_code))
          return yield* Effect.fail(new RouteNotFound({ message: `no route: ${err.value.error}` }))
        return yield* Effect.fail(new EngineUnavailable({ message: `routing engine answered HTTP ${res.status}` }))
      }
      const answer = yield* Schema.decodeUnknown(RouteAnswer)(json)
      const trips = [answer.trip, ...(answer.alternates ?? []).map((a) => a.trip)].slice(0, req.alternatives + 1)
      return { routes: trips.map(fromTrip), credit: [CREDIT] }
    }).pipe(
      Effect.timeoutFail({
        duration: TIMEOUT,
        onTimeout: () => new EngineUnavailable({ message: "routing engine timed out" })
      }),
      Effect.catchAll((e) =>
        e._tag === "RouteNotFound" || e._tag === "EngineUnavailable"
          ? Effect.fail(e)
          : Effect.fail(new EngineUnavailable({ message: `routing engine: ${String(e)}` }))
      )
    )
})

export const valhallaEngineLayer = (baseUrl: string) =>
  Layer.effect(
    RoutingEngine,
    Effect.map(HttpClient.HttpClient, (client) => makeValhallaEngine(baseUrl, client))
  )
