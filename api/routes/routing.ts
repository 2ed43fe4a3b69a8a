import { Effect } from "effect"
import { BadRequest } from "../http/HttpError.js"
import { route } from "../http/Route.js"
import { planRoute } from "../routing/planRoute.js"
import { RouteRequest, RouteResponse } from "../schemas/routing.js"
import { truckGate } from "./truck.js"

/** Truck routing (SPEC §4.4), Pro and above; docs/routing.md describes it. */
export const routingRoutes = [
  route({
    method: "post", path: "/routing/route", operationId: "routeTruck", tag: "Routing", access: "key", gate: truckGate,
    summary: "Pro and above; a truck route with live closures and restrictions avoided or warned about along it",
    body: RouteRequest,
    responses: {
      200: { description: "Routes, best first", schema: RouteResponse, headers: ["rateLimit"] },
      422: { description: "No route: a point is off the road network, or closures and restrictions cut every way" },
      503: { description: "The routing engine is unavailable; retry" }
    },
    handler: ({ body }) =>
      body.truck.profile_id !== undefined
        ? Effect.fail(new BadRequest({ message: "truck.profile_id: saved truck profiles are not offered yet; send the truck fields inline" }))
        : planRoute(body)
  })
]
