import { Effect, Schema } from "effect"
import { makeCorridor } from "../../shared/geo/corridor.js"
import { featureToGeoJson, GEOJSON, warningHeader } from "../geojson.js"
import { BadRequest } from "../http/HttpError.js"
import { Limit, List, Num, Text } from "../http/QueryParams.js"
import { Reply, type ResponseHeaders, route } from "../http/Route.js"
import { jurisdictionFilter } from "../jurisdictionFilter.js"
import { listExtras } from "../listExtras.js"
import { corridorFeatures } from "../queries/CorridorQuery.js"
import { reference } from "../queries/Reference.js"
import { CorridorCollection, CorridorResult } from "../schemas/features.js"
import type { ApiWarning } from "../warnings.js"
import { Key } from "../http/access.js"

export const CORRIDOR_BUFFER_MAX_KM = 50
export const CORRIDOR_LIMIT_MAX = 2000

const CorridorQuery = Schema.Struct({
  from_lat: Num(-90, 90, "Start latitude"),
  from_lng: Num(-180, 180, "Start longitude"),
  to_lat: Num(-90, 90, "End latitude"),
  to_lng: Num(-180, 180, "End longitude"),
  buffer_km: Schema.optional(Num(0, CORRIDOR_BUFFER_MAX_KM, "Default 5, at most 50", true)),
  height: Schema.optional(Num(0.1, 20, "Vehicle height in metres: clearances are returned only when lower")),
  weight: Schema.optional(Text("Not supported: sending it is a 400", 100)),
  jurisdiction: Schema.optional(List("One code", 10)),
  limit: Schema.optional(Limit(CORRIDOR_LIMIT_MAX))
})
type CorridorQuery = typeof CorridorQuery.Type

const corridorQuery = (q: CorridorQuery, headers: ResponseHeaders) =>
  Effect.gen(function* () {
    if (q.weight !== undefined) {
      return yield* Effect.fail(
        new BadRequest({
          message: "weight is not supported: the corridor does no load filtering; drop weight to get the full inventory"
        })
      )
    }
    if ((q.jurisdiction?.length ?? 0) > 1)
      return yield* Effect.fail(new BadRequest({ message: "jurisdiction takes one code on the corridor" }))
    const from = { lat: q.from_lat, lng: q.from_lng }
    const to = { lat: q.to_lat, lng: q.to_lng }
    const bufferKm = q.buffer_km ?? 5
    const limit = q.limit ?? 500
    const warnings: Array<ApiWarning> = []
    const ref = yield* reference
    const jurisdictions = yield* jurisdictionFilter(q.jurisdiction, ref, warnings)
    const corridor = makeCorridor(from, to, bufferKm)
    const result = yield* corridorFeatures({ corridor, jurisdictions, heightM: q.height, limit })
    const attribution = yield* listExtras(headers, {
      kind: "feature",
      codes: q.jurisdiction,
      ref,
      types: undefined,
      rows: result.data,
      total: result.total,
      warnings
    })
    return {
      corridor: {
        from: [from.lat, from.lng],
        to: [to.lat, to.lng],
        buffer_km: bufferKm,
        distance_km: Math.round(corridor.lengthKm * 1000) / 1000
      },
      data: result.data,
      total: result.total,
      limit,
      attribution,
      warnings
    }
  })

export const truckGate = {
  allowed: (p: { allow_truck_data: boolean }) => p.allow_truck_data,
  code: "plan_truck",
  message: "truck corridor and routing are available on Pro and above"
} as const

/** Truck corridor (SPEC §4.3), Pro and above. */
export const truckRoutes = [
  route({
    method: "get",
    path: "/truck/corridor",
    operationId: "truckCorridor",
    tag: "Truck",
    access: Key,
    reads: "replica",
    gate: truckGate,
    summary: "Pro and above; features in force today along the great-circle line, ordered along it",
    query: CorridorQuery,
    responses: {
      200: { description: "Corridor features", schema: CorridorResult, headers: ["rateLimit", "jurisdictionWarning"] }
    },
    handler: ({ query, headers }) =>
      Effect.map(corridorQuery(query, headers), ({ attribution, warnings, ...body }) => ({
        ...body,
        ...(attribution.length > 0 ? { attribution } : {}),
        ...(warnings.length > 0 ? { warnings } : {})
      }))
  }),
  route({
    method: "get",
    path: "/truck/corridor/geojson",
    operationId: "truckCorridorGeoJson",
    tag: "Truck",
    access: Key,
    reads: "replica",
    gate: truckGate,
    summary: "Pro and above; the corridor as an RFC 7946 FeatureCollection",
    query: CorridorQuery,
    responses: {
      200: {
        description: "RFC 7946 FeatureCollection",
        schema: CorridorCollection,
        contentType: GEOJSON,
        headers: ["rateLimit", "jurisdictionWarning"]
      }
    },
    handler: ({ query, headers }) =>
      Effect.gen(function* () {
        const { attribution, warnings, corridor, data, total, limit } = yield* corridorQuery(query, headers)
        warningHeader(headers, warnings)
        return new Reply(
          200,
          {
            type: "FeatureCollection",
            features: data.map(featureToGeoJson),
            corridor,
            total,
            limit,
            ...(attribution.length > 0 ? { attribution } : {})
          },
          GEOJSON
        )
      })
  })
]
