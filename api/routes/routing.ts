import { Cause, Effect, Option, Schema } from "effect"
import {
  deleteSavedRoute,
  insertSavedRoute,
  listPersistedRoutes,
  loadSavedRoute,
  persistSavedRoute
} from "../../shared/routing/saved/savedRoutes.js"
import { criticalWarnings } from "../../shared/routing/saved/criticalWarnings.js"
import { keptRoutes } from "../../shared/routing/saved/keptRoute.js"
import { nowMillis } from "../../shared/time/Now.js"
import { httpAnswer, NotFound } from "../http/HttpError.js"
import { Id } from "../http/QueryParams.js"
import { RequestAuth } from "../http/RequestAuth.js"
import { Reply, type ResponseHeaders, route } from "../http/Route.js"
import type { AuthContext, Plan } from "../http/AuthContext.js"
import { planGate } from "../middleware/planGate.js"
import { planRoute } from "../../shared/routing/plan/planRoute.js"
import { type ChargeTurn, forEachInChargeOrder } from "./routing/chargeOrder.js"
import { chargeRouting, type RoutingCharge } from "./routing/quota.js"
import { savedRouteAnswer, storedAnswer } from "../../shared/routing/saved/refetch.js"
import { resolveTruck } from "../../shared/routing/plan/truckProfiles.js"
import { stateBoundaries } from "../../shared/routing/plan/routingData.js"
import { mileageCsv } from "../../shared/routing/tolls/stateMiles.js"
import { type ResolvedTruck, RouteRequest } from "../../shared/routing/plan/schemas.js"
import {
  PersistedRouteList,
  PersistInput,
  PersistResponse,
  ROUTE_BATCH_MAX,
  RouteBatchRequest,
  RouteBatchResponse,
  RouteResponse,
  SavedRouteResponse
} from "../../shared/routing/plan/answerSchemas.js"
import { Key } from "../http/access.js"

/**
 * Routing needs routing calls in the plan: every seeded plan has some (the Free trial and
 * Starter a few to try it, Pro and above thousands); a plan an operator sets without any is gated.
 */
export const routingGate = {
  allowed: (p: Plan) => p.monthly_routing_quota > 0,
  code: "plan_truck",
  message: "truck routing needs a plan with routing calls (Pro and above for regular use)"
} as const

const common = { tag: "Routing", access: Key, gate: routingGate } as const
const SavedPath = Schema.Struct({ id: Id("Route id (rte_…) from a routing answer", 100) })
const gone = (id: string) =>
  new NotFound({
    message: `no saved route ${id}: it was never yours, was deleted, or its 30 minutes ran out without a persist`,
    docsUrl: "/docs/routing#saved-routes"
  })
/** The caller's saved route while it is retrievable; anyone else's, or an expired one, is a 404. */
const ownedRoute = Effect.fnUntraced(function* (id: string) {
  const auth = yield* RequestAuth
  const nowMs = yield* nowMillis
  const row = yield* loadSavedRoute(auth.customerId, id, nowMs)
  if (!row) return yield* gone(id)
  return { auth, nowMs, row }
})
/** The same for a refetch, which reads the route's tracks only when it must read the route again. */
const ownedRouteToShow = Effect.fnUntraced(function* (id: string) {
  const auth = yield* RequestAuth
  const nowMs = yield* nowMillis
  const row = yield* loadSavedRoute(auth.customerId, id, nowMs, "when needed")
  if (!row) return yield* gone(id)
  return { auth, nowMs, row }
})
const notFound = { 404: { description: "No such route of yours, or its 30 minutes ran out" } }

/**
 * Routes of a batch planned at once on the worker that took it: one route's reads overlap the other's planning on its
 * one core.
 */
const BATCH_CONCURRENCY = 2

/**
 * One routing call: the truck resolved, the calls charged (given back if planning fails), the
 * route planned and saved with its usage. The single call's answer, and each route of a batch.
 */
const routeAndSave = Effect.fnUntraced(function* (body: RouteRequest, headers: ResponseHeaders, turn?: ChargeTurn) {
  const auth = yield* RequestAuth
  const tollAlternative = (body.include ?? []).includes("toll_alternative")
  if (tollAlternative && auth.plan.trial_days !== null) {
    return yield* planGate(auth, "plan_truck", "include: toll_alternative is for paid plans (Pro and above)")
  }
  const truck = yield* resolveTruck(auth.customerId, body.truck)
  // toll_alternative computes a second route and counts as two calls (SPEC §8)
  if (turn) yield* turn.awaitTurn
  const charge = yield* chargeRouting(auth, tollAlternative ? 2 : 1, headers, turn?.settle).pipe(
    Effect.ensuring(turn?.passTurn ?? Effect.void)
  )
  return yield* planAndSave(body, truck, auth, charge).pipe(Effect.onError(() => charge.giveBack))
})

/**
 * The route planned and saved once charged (made once, as every generator on the request path:
 * api/http/mountRoutes.ts keptByScavenges).
 */
const planAndSave = Effect.fnUntraced(function* (
  body: RouteRequest,
  truck: ResolvedTruck,
  auth: AuthContext,
  charge: RoutingCharge
) {
  const planned = yield* planRoute({ ...body, truck })
  const answer = { ...planned.answer, resolved_truck: truck }
  const nowMs = yield* nowMillis
  const first = answer.routes[0].summary
  yield* insertSavedRoute(
    {
      id: answer.route_id,
      customerId: auth.customerId,
      customerRouteId: body.customer_route_id ?? null,
      request: { ...body, truck },
      evaluation: planned.evaluation,
      tracks: planned.tracks,
      answer: storedAnswer(answer),
      cells: planned.cells,
      calls: charge.cost,
      usagePeriods: charge.periods,
      placed: keptRoutes(planned.tracks, planned.evaluation, nowMs, planned.placed),
      cells5: planned.cells5,
      xmin: planned.xmin,
      summary: {
        origin: body.origin,
        destination: body.destination,
        distance_m: first.distance_m,
        duration_s: first.duration_s
      }
    },
    nowMs
  )
  return { answer, calls: charge.cost }
})

type Planned = Effect.Effect.Success<ReturnType<typeof routeAndSave>>

/** A batch's line for a planned route: enough to pick the routes worth opening. */
const batchItem = (index: number, req: RouteRequest, { answer: a, calls }: Planned) => {
  const primary = a.routes[0]
  return {
    index,
    status: 200,
    ...(req.customer_route_id !== undefined ? { customer_route_id: req.customer_route_id } : {}),
    route_id: a.route_id,
    summary: primary.summary,
    hazard_count: a.hazard_count,
    critical_count: primary.warnings.filter((w) => w.severity === "critical").length,
    avoided_count: a.avoided.length,
    ...(primary.hos ? { hos_stops: primary.hos.length } : {}),
    calls
  }
}

/** Truck routing (SPEC §4.4) and saved routes; docs/api/routing.md describes them. */
export const routingRoutes = [
  route({
    ...common,
    method: "post",
    path: "/routing/route",
    operationId: "routeTruck",
    summary:
      "A truck route with live closures and restrictions avoided or warned about along it; saved 30 minutes under route_id",
    body: RouteRequest,
    responses: {
      200: { description: "Routes, best first", schema: RouteResponse, headers: ["rateLimit"] },
      404: { description: "truck.profile_id names no profile of yours" },
      422: { description: "No route: a point is off the road network, or closures and restrictions cut every way" },
      503: { description: "The routing engine is unavailable; retry" }
    },
    handler: ({ body, headers }) => Effect.map(routeAndSave(body, headers), (r) => r.answer)
  }),
  route({
    ...common,
    method: "post",
    path: "/routing/route/batch",
    operationId: "routeTruckBatch",
    summary: `Up to ${ROUTE_BATCH_MAX} truck routes in one call (a fleet's day in a few calls): each planned and saved as POST /routing/route would, and charged one routing call per route; the answer lists each route's id and summary`,
    body: RouteBatchRequest,
    responses: {
      200: {
        description: "One item per request, in order; a request that failed says why in its own status and error",
        schema: RouteBatchResponse,
        headers: ["rateLimit"]
      }
    },
    handler: ({ body, headers }) =>
      Effect.gen(function* () {
        const t0 = performance.now()
        const data = yield* forEachInChargeOrder(body.routes, BATCH_CONCURRENCY, (req, index, turn) =>
          routeAndSave(req, headers, turn).pipe(
            Effect.map((a) => batchItem(index, req, a)),
            Effect.catchAllCause((cause) =>
              Effect.gen(function* () {
                const failure = Cause.failureOption(cause)
                const known = Option.isSome(failure) ? httpAnswer(failure.value) : null
                if (known === null) yield* Effect.logError("a route of a batch failed unexpectedly", cause)
                const { error, code, docs_url } = (known?.body ?? {
                  error: "internal error planning this route",
                  docs_url: "/docs/errors#500"
                }) as { error: string; code?: string; docs_url?: string }
                return {
                  index,
                  status: known?.status ?? 500,
                  ...(req.customer_route_id !== undefined ? { customer_route_id: req.customer_route_id } : {}),
                  error,
                  ...(code !== undefined ? { code } : {}),
                  ...(docs_url !== undefined ? { docs_url } : {})
                }
              })
            )
          )
        )
        const succeeded = data.filter((d) => d.status === 200).length
        const calls = data.reduce((n, d) => n + ("route_id" in d ? d.calls : 0), 0)
        yield* Effect.logInfo(
          `route batch: ${succeeded} of ${data.length} planned in ${Math.round(performance.now() - t0)} ms, ${calls} routing calls`
        )
        return {
          count: data.length,
          succeeded,
          failed: data.length - succeeded,
          calls,
          data: data.map(({ calls: _c, ...d }: { calls?: number } & Record<string, unknown>) => d)
        }
      })
  }),
  route({
    ...common,
    method: "get",
    path: "/routing/route/saved",
    operationId: "listPersistedRoutes",
    summary: "Your persisted routes (what holds your saved-route slots), oldest first",
    responses: {
      200: { description: "Persisted routes and slots", schema: PersistedRouteList, headers: ["rateLimit"] }
    },
    handler: () =>
      Effect.gen(function* () {
        const auth = yield* RequestAuth
        const data = yield* listPersistedRoutes(auth.customerId)
        return { data, slots: { used: data.length, limit: auth.plan.saved_route_slots } }
      })
  }),
  route({
    ...common,
    method: "get",
    path: "/routing/route/saved/:id",
    operationId: "getSavedRoute",
    summary: "A saved route with its warnings worked out again from current events and features; uses no routing quota",
    params: SavedPath,
    responses: {
      200: { description: "The route, re-evaluated", schema: SavedRouteResponse, headers: ["rateLimit"] },
      ...notFound
    },
    handler: ({ params, headers }) =>
      Effect.gen(function* () {
        const { auth, nowMs, row } = yield* ownedRouteToShow(params.id)
        // free: shows what is left without taking any
        yield* chargeRouting(auth, 0, headers)
        return new Reply(200, yield* savedRouteAnswer(row, nowMs), "application/json")
      })
  }),
  route({
    ...common,
    method: "post",
    path: "/routing/route/saved/:id/persist",
    operationId: "persistSavedRoute",
    summary:
      "Keeps a saved route until deleted, in one of the plan's saved-route slots, and (by default) monitors it for new critical warnings",
    params: SavedPath,
    body: PersistInput,
    responses: {
      200: {
        description: "Persisted (again: the same slot, monitoring as asked)",
        schema: PersistResponse,
        headers: ["rateLimit"]
      },
      ...notFound
    },
    handler: ({ params, body }) =>
      Effect.gen(function* () {
        const { auth, nowMs, row } = yield* ownedRoute(params.id)
        // monitoring announces critical warnings that appear after this moment, not those already there
        const known = (yield* criticalWarnings(row.evaluation, row.engine_routes[0], nowMs)).map((c) => c.key)
        const monitor = body.monitor ?? true
        const slots = auth.plan.saved_route_slots
        const out = yield* persistSavedRoute(auth.customerId, params.id, slots, monitor, known, nowMs)
        if (out._tag === "missing") return yield* gone(params.id)
        if (out._tag === "full") {
          return yield* planGate(
            auth,
            "saved_route_slots_full",
            slots === 0
              ? "your plan has no saved-route slots; persisting routes needs Pro or above"
              : `all ${slots} saved-route slots are in use; delete a persisted route (DELETE /api/v1/routing/route/saved/{id}) to free one`
          )
        }
        return {
          route_id: params.id,
          state: "persisted" as const,
          persisted_at: out.persisted_at,
          monitored: out.monitor,
          slots: { used: out.used, limit: slots }
        }
      })
  }),
  route({
    ...common,
    method: "get",
    path: "/routing/route/saved/:id/mileage.csv",
    operationId: "savedRouteMileage",
    summary:
      "The primary route's distance per state or province, tolled part included, as CSV for fuel-tax (IFTA) reports; uses no routing quota",
    params: SavedPath,
    responses: {
      200: {
        description: "CSV, header `state,miles,km,toll_miles`, longest first",
        schema: Schema.String,
        contentType: "text/csv",
        headers: ["rateLimit"]
      },
      ...notFound
    },
    handler: ({ params, headers }) =>
      Effect.gen(function* () {
        const { auth, row } = yield* ownedRoute(params.id)
        yield* chargeRouting(auth, 0, headers)
        const track = row.engine_routes[0]
        // a route saved before its regions were kept: cut by the polygons, its tolled part unknown
        const regions =
          track.regions ??
          (yield* stateBoundaries)
            .split(track.coordinates, track.distance_m)
            .map((r) => ({ region: r.jurisdiction, distance_m: r.distance_m, toll_m: null }))
        headers.set("Content-Disposition", `attachment; filename="${params.id}-mileage.csv"`)
        // Koa adds "; charset=utf-8" to a text type
        return new Reply(200, mileageCsv(regions), "text/csv")
      })
  }),
  route({
    ...common,
    method: "delete",
    path: "/routing/route/saved/:id",
    operationId: "deleteSavedRoute",
    summary: "Deletes a saved or persisted route; a persisted one frees its slot and stops its monitoring",
    params: SavedPath,
    responses: { 204: { description: "Deleted" }, ...notFound },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const auth = yield* RequestAuth
        if (!(yield* deleteSavedRoute(auth.customerId, params.id))) return yield* gone(params.id)
        return new Reply(204, undefined)
      })
  })
]
