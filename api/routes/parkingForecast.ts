import { Effect, Schema } from "effect"
import { NotFound } from "../http/HttpError.js"
import { Id, Int } from "../http/QueryParams.js"
import { route } from "../http/Route.js"
import { Key } from "../http/access.js"
import { featureRows } from "../queries/FeatureDetails.js"
import { type ForecastRow, isParkingFeature, parkingForecast } from "../queries/ParkingForecast.js"
import { ParkingForecast } from "../schemas/parking.js"
import { truckGate } from "./truck.js"

/** GET /features/{id}/forecast: a truck-parking site's free spaces ahead, with honest bands. */
export const parkingForecastRoutes = [
  route({
    method: "get",
    path: "/features/:id/forecast",
    operationId: "parkingForecast",
    summary:
      "Pro and above; free spaces forecast every 15 minutes at a truck-parking site, with p10–p90 and the chance of full",
    tag: "Truck",
    access: Key,
    reads: "replica",
    gate: truckGate,
    params: Schema.Struct({ id: Id("Feature id (ft_…) of a truck-parking site") }),
    query: Schema.Struct({
      hours: Schema.optional(Int(1, 24, "How far ahead, in hours (default 12)"))
    }),
    responses: {
      200: { description: "The forecast, or why there is none", schema: ParkingForecast, headers: ["rateLimit"] },
      404: { description: "No such feature, or not a truck-parking site" }
    },
    handler: ({ params, query }) =>
      Effect.gen(function* () {
        const [row] = yield* featureRows([params.id])
        if (!row)
          return yield* Effect.fail(
            new NotFound({ message: `no feature with id ${params.id}`, docsUrl: "/docs/api#parking-forecast" })
          )
        const feature = row as unknown as ForecastRow
        if (!isParkingFeature(feature))
          return yield* Effect.fail(
            new NotFound({
              message: `${params.id} is a ${feature.feature_type.replace(/_/g, " ")} feature; forecasts are for truck-parking sites`,
              docsUrl: "/docs/api#parking-forecast"
            })
          )
        return yield* parkingForecast(feature, query.hours ?? 12)
      })
  })
]
