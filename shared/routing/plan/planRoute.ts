import { Effect, Fiber, Option } from "effect"
import { randomBytes } from "node:crypto"
import { nowMillis } from "../../time/Now.js"
import {
  type EngineAnswer,
  type EngineRequest,
  type EngineRoute,
  type Exclusion,
  type LimitAvoided,
  type RegionLength,
  type RouteTrack,
  RoutingEngine
} from "../engine/RoutingEngine.js"
import { mileageByState, regionLengths } from "../tolls/stateMiles.js"
import { AVOID_ALIASES, type ResolvedTruck, type RouteRequest } from "./schemas.js"
import { borderCrossings, stateBoundaries, tollTable } from "./routingData.js"
import { type TollTable, tollCosts } from "../tolls/tolls.js"
import { RoutingInputError } from "./errors.js"
import { RoutingConfig } from "../RoutingConfig.js"
import { hazardRows } from "../hazards/hazardRows.js"
import { HazardCells, lookAtMarks } from "../hazards/HazardCells.js"
import { parentsAt5 } from "../../geo/h3cells.js"
import { arrivalWithRests, projectHos } from "../hos/projectHos.js"
import { switchesFor } from "../hos/countryRules.js"
import { crossingName } from "./borderCrossings.js"
import { type HosInput, hosInputProblems, type HosRulesetName } from "../hos/rulesets.js"
import { type HazardOptions, judgeHazards, placeHazards, type Warning } from "../hazards/routeHazards.js"
import { type Evaluation, featureTypesOf, judgeRoutes, placeRoutes } from "./evaluation.js"
import { traced } from "../../observability/Tracing.js"
import { readAhead } from "../../db/readAhead.js"
import type { BarrierQuery, KeptOff } from "../hazards/barrierIndex.js"
import { StandingBarriers } from "./standingBarriers.js"

/** The warning type a network limit would have raised. */
const LIMIT_WARNING: Record<LimitAvoided["dimension"], string> = {
  height: "bridge_clearance",
  weight: "weight_restriction",
  length: "truck_restriction",
  axles: "truck_restriction",
  hazmat: "truck_restriction",
  trucks: "truck_restriction"
}

/** Rounds of "route, find what bars the truck on it, route around it". */
const MAX_REROUTES = 3

/** One hazard's identity among a request's warnings. */
const hazardKey = (type: string, sourceId: string) => `${type}|${sourceId}`

const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places

/** A route request whose truck is whole (a saved profile merged in). */
export type PlanRequest = Omit<RouteRequest, "truck"> & { readonly truck: ResolvedTruck }

/**
 * A truck route with our agency data along it: the engine's route, moved off live closures and
 * off restrictions the truck violates where another way exists; what still lies on it becomes
 * a warning (critical where it bars the truck).
 */
export const planRoute = Effect.fnUntraced(function* (req: PlanRequest) {
  const engine = yield* RoutingEngine
  const nowMs = yield* nowMillis
  const departureMs = req.departure_time ? Date.parse(req.departure_time) : nowMs
  const include = new Set(req.include ?? [])
  const avoid = new Set((req.avoid ?? []).map((a) => AVOID_ALIASES[a]))
  if (include.has("toll_alternative")) include.add("tolls")
  const tolls = include.has("tolls") ? yield* tollTable : undefined
  if (tolls && req.currency !== undefined && !tolls.perUsd.has(req.currency)) {
    return yield* Effect.fail(
      new RoutingInputError({
        message: `currency ${req.currency} is not in the rate table (${[...tolls.perUsd.keys()].join(", ")})`
      })
    )
  }
  const hazmat = (req.truck.hazardous?.length ?? 0) > 0 || (req.cargo?.hazmat_class ?? "") !== ""
  const truck = {
    height_m: req.truck.height_m,
    weight_t: req.truck.weight_t,
    length_m: req.truck.length_m,
    width_m: req.truck.width_m,
    axle_count: req.truck.axle_count,
    max_speed_kmh: req.truck.max_speed_kmh,
    hazmat
  }
  const e = req.enrichment ?? {}
  const options: HazardOptions = {
    bufferM: e.buffer_m ?? 100,
    clearancePadM: e.clearance_pad_m ?? 0.15,
    truck,
    departureMs,
    skipTemporal: e.skip_temporal_filter ?? false,
    includeFeatures: e.include_features ?? []
  }
  // hours of service on the primary route only (SPEC §4.4 rule 1); the schema admits only the
  // table's names, or "" for the deployment's default
  const hosIn = req.truck.hos
  const ruleset =
    hosIn === undefined
      ? undefined
      : (hosIn.ruleset as HosRulesetName | "" | undefined) || (yield* RoutingConfig).defaultHosRuleset
  const hosProblems = hosIn !== undefined && ruleset !== undefined ? hosInputProblems(ruleset, countersOf(hosIn)) : []
  if (hosProblems.length > 0) return yield* Effect.fail(new RoutingInputError({ message: hosProblems.join("; ") }))
  const evaluation: Evaluation = {
    hazards: options,
    shown: {
      minSeverity: e.min_severity ?? "info",
      excludeTypes: e.exclude_types ?? [],
      ...(e.max_distance_m !== undefined ? { maxDistanceM: e.max_distance_m } : {})
    },
    ...(hosIn !== undefined && ruleset !== undefined ? { hos: { ruleset, counters: countersOf(hosIn) } } : {})
  }
  const base: EngineRequest = {
    points: [req.origin, ...(req.waypoints ?? []), req.destination],
    truck,
    avoid: { toll_road: avoid.has("toll_road"), ferry: avoid.has("ferry"), tunnel: avoid.has("tunnel") },
    alternatives: req.alternatives ?? 0,
    exclusions: []
  }
  // one reader for the request: hazards, requested features and, with hos, places to stop; what it
  // reads is as new as the snapshot taken first (read while the first search runs, with the
  // worker's look at what changed since its last, which says what other routes read is still good)
  const store = Option.getOrUndefined(yield* Effect.serviceOption(HazardCells))
  const xminRead = yield* readAhead(lookAtMarks(store))
  // route, then move off what bars the truck on the best route, a few rounds at most
  const exclusions: Array<Exclusion> = []
  // barriers moved off, by hazardKey
  const movedOff = new Map<string, { warning_type: string; source_id: string; title: string }>()
  let found = yield* engine.route(base).pipe(traced("routing search"))
  const xmin = yield* Fiber.join(xminRead)
  const rows = yield* hazardRows(featureTypesOf(evaluation), store?.view(Number(xmin)))
  // while rerouting, the primary's arrivals count its rests taken where the hours run out
  // (the final judging below stops at the places to rest it finds)
  const arrival = (r: EngineRoute) =>
    evaluation.hos
      ? arrivalWithRests(
          projectHos(
            r.duration_s,
            departureMs,
            evaluation.hos.ruleset,
            evaluation.hos.counters,
            undefined,
            switchesFor(r, evaluation.hos.ruleset)
          ),
          departureMs
        )
      : undefined
  // barriers known ahead: every one that bars this truck for the whole trip is kept off in any
  // search after the first, with no reads and no rounds for them; when the best route meets
  // one, one search moves it off them all. What is left, or came after the worker's last
  // look, the rounds below find on the route
  const standing = yield* standingBarriers(
    found,
    options,
    (r) => arrival(r)?.(r.duration_s) ?? departureMs + r.duration_s * 1000
  )
  // every search after the first keeps off them, until doing so has left no way through
  let keepOff = standing !== undefined
  const request = (): EngineRequest => (keepOff && standing ? { ...base, excluded_keys: standing.kept().keys } : base)
  // a barrier the search was to keep off and passes all the same (a point walled in by such, the road piece a point
  // lies on) is where no other way goes: a round would only search again to find that
  const passedAnyway = (w: Warning) =>
    keepOff && standing !== undefined && standing.kept().passedOn(barrierId(w), found.routes[0].segment_keys[w.segment])
  if (standing && standing.met.length > 0) {
    const kept = yield* Effect.either(engine.route(request()))
    if (kept._tag === "Right") {
      found = kept.right
      for (const b of standing.met) movedOff.set(hazardKey(b.warning_type, b.source_id), b)
    } else keepOff = false // keeping off them all leaves no way through: the rounds take them one by one
  }
  let placed0 = yield* placeHazards(found.routes[0], options, rows)
  let hazards = judgeHazards(found.routes[0], options, nowMs, placed0, arrival(found.routes[0]), true)
  for (let round = 0; round < MAX_REROUTES; round++) {
    const blocking = hazards.warnings.filter(
      (w) => w.blocking && !movedOff.has(hazardKey(w.type, w.source_id)) && !passedAnyway(w)
    )
    if (blocking.length === 0) break
    let more = blocking.map((w) => exclusionAt(found.routes[0], w, options.bufferM))
    let retry = yield* Effect.either(engine.route({ ...request(), exclusions: [...exclusions, ...more] }))
    if (retry._tag === "Left") {
      // every road past one of them may cut the origin or destination off: keep only the pieces they
      // lie on, and the barriers known ahead no longer
      more = more.map((x) => ({ ...x, radius_m: 0 }))
      keepOff = false
      retry = yield* Effect.either(engine.route({ ...base, exclusions: [...exclusions, ...more] }))
    }
    if (retry._tag === "Left") break // nothing avoids them: they stay as critical warnings
    exclusions.push(...more)
    for (const w of blocking)
      movedOff.set(hazardKey(w.type, w.source_id), { warning_type: w.type, source_id: w.source_id, title: w.title })
    found = retry.right
    placed0 = yield* placeHazards(found.routes[0], options, rows)
    hazards = judgeHazards(found.routes[0], options, nowMs, placed0, arrival(found.routes[0]), true)
  }
  // a barrier moved off in one round that a later route passes again was not avoided: it stays a warning only
  for (const w of hazards.warnings) movedOff.delete(hazardKey(w.type, w.source_id))
  const avoided = [
    ...movedOff.values(),
    // the network's own limits the truck was kept from (a low structure, a tunnel closed to its load)
    ...(found.limits_avoided ?? []).map((l) => ({
      warning_type: LIMIT_WARNING[l.dimension],
      source_id: l.source ?? `network edge ${l.edge_key}`,
      title: l.title
    }))
  ]
  // toll_alternative: one more call with toll roads avoided, unless the routes already hold a free one
  const candidates = [...found.routes]
  if (include.has("toll_alternative") && candidates.every((r) => r.sections.some((s) => s.toll !== null))) {
    const free = yield* Effect.either(
      engine.route({ ...request(), alternatives: 0, avoid: { ...base.avoid, toll_road: true }, exclusions })
    )
    if (free._tag === "Right" && free.right.routes[0].sections.every((s) => s.toll === null))
      candidates.push(free.right.routes[0])
  }
  // state miles: the network's own where it knows them; the polygons are read only when it does not
  const polygons = candidates.every((r) => r.regions) ? undefined : yield* stateBoundaries
  const regions = candidates.map((r) => regionLengths(r, () => polygons!))
  const placed = yield* placeRoutes(candidates, evaluation, rows, new Map([[candidates[0], placed0]])).pipe(
    traced("routing hazards")
  )
  const results = judgeRoutes(candidates, evaluation, nowMs, placed)
  // the rests in the trip: the primary's hos[] when asked for, else a fresh driver's under the deployment's rules
  const driver = evaluation.hos ?? { ruleset: (yield* RoutingConfig).defaultHosRuleset, counters: {} }
  const driverPlan = (r: EngineRoute) =>
    projectHos(r.duration_s, departureMs, driver.ruleset, driver.counters, undefined, switchesFor(r, driver.ruleset))
  const restsOf = (r: EngineRoute, i: number) =>
    (results[i].hos ?? driverPlan(r)).reduce((t, stop) => t + ("rest_s" in stop ? stop.rest_s : stop.restS), 0)
  const crossingTable = candidates.some((r) => (r.crossings ?? []).length > 0) ? yield* borderCrossings : []
  const bordersOf = (r: EngineRoute) => {
    const passages = r.crossings ?? []
    if (passages.length === 0) return []
    const at = arrivalWithRests(driverPlan(r), departureMs)
    const switches = switchesFor(r, driver.ruleset)
    return passages.map((c) => {
      const [lng, lat] = r.coordinates[c.index]
      const rules = switches.filter((w) => w.atS <= c.along_s).pop()?.ruleset ?? driver.ruleset
      return {
        name: crossingName(crossingTable, lat, lng, c.road),
        from_region: c.from_region,
        to_region: c.to_region,
        distance_along_route_m: round(c.along_m),
        projected_time: new Date(at(c.along_s)).toISOString(),
        geometry: { type: "Point" as const, coordinates: [round(lng, 6), round(lat, 6)] },
        ...(evaluation.hos ? { hos_ruleset: rules } : {})
      }
    })
  }
  const routes = candidates.map((r, i) => {
    const restS = round(restsOf(r, i))
    const base = shapeRoute(r, req, tolls, truck)
    const tripS = base.summary.duration_s + restS
    const shaped = {
      ...base,
      summary: {
        ...base.summary,
        rest_duration_s: restS,
        trip_duration_s: tripS,
        arrival_time: new Date(departureMs + tripS * 1000).toISOString()
      },
      border_crossings: bordersOf(r),
      warnings: results[i].warnings,
      features: results[i].features,
      ...(results[i].hos ? { hos: results[i].hos } : {})
    }
    return include.has("mileage_by_state")
      ? { ...shaped, summary: { ...shaped.summary, mileage_by_state: mileageByState(regions[i]) } }
      : shaped
  })
  const answer = {
    route_id: `rte_${randomBytes(12).toString("hex")}`,
    routes,
    ...(ruleset !== undefined ? { hos_ruleset: ruleset } : {}),
    ...(req.customer_route_id !== undefined ? { customer_route_id: req.customer_route_id } : {}),
    engine: engine.name,
    attribution: found.credit,
    avoided,
    departure_time: new Date(departureMs).toISOString(),
    computed_at: new Date(nowMs).toISOString(),
    hazard_count: routes.reduce((n, r) => n + r.warnings.length, 0)
  }
  // what a refetch and the monitor need to evaluate these routes again
  const tracks = candidates.map((r, i) => trackOf(r, regions[i]))
  const cells = rows.coverOf(candidates[0], options.bufferM)
  // a refetch judges `placed` again as long as no change has touched these res-5 cells since xmin
  return { answer, evaluation, tracks, cells, placed, cells5: parentsAt5(rows.cellsRead()), xmin }
}, traced("routing plan"))

/**
 * How long after departure a barrier must stay in force to be kept off ahead: twice the time the
 * unhindered route takes to arrive (its rests included) and six hours more. A barrier that may
 * lift before the truck gets there is left to the rounds, which judge it at the arrival time.
 */
const horizonMs = (arriveMs: number, departureMs: number) => departureMs + 2 * (arriveMs - departureMs) + 6 * 3_600_000

/**
 * The worker's standing barriers (StandingBarriers) that the best route meets and that bar this
 * truck for the whole trip (what a search kept off them avoided), and what keeps a search off
 * all that bar it (`BarrierIndex.keptOff`), asked for only when a search or a round needs it.
 * Undefined when the worker has no index yet.
 */
const standingBarriers = Effect.fnUntraced(function* (
  first: EngineAnswer,
  o: HazardOptions,
  arriveMs: (r: EngineRoute) => number
) {
  const service = yield* Effect.serviceOption(StandingBarriers)
  const index = Option.isSome(service) ? yield* service.value.current : undefined
  if (!index || index.size === 0) return undefined
  const q: BarrierQuery = {
    truck: o.truck,
    clearancePadM: o.clearancePadM,
    bufferM: o.bufferM,
    skipTemporal: o.skipTemporal,
    fromMs: o.departureMs,
    toMs: horizonMs(arriveMs(first.routes[0]), o.departureMs)
  }
  let kept: KeptOff | undefined
  return {
    met: index.along(new Set(first.routes[0].segment_keys), q).map((b) => index.avoided(b, q)),
    kept: () => (kept ??= index.keptOff(q))
  }
})

/** The feature or event a warning is for. */
const barrierId = (w: Warning) => String(w.properties.feature_id ?? w.properties.event_id)

const countersOf = (h: NonNullable<RouteRequest["truck"]["hos"]>): HosInput => {
  const { ruleset: _r, ...counters } = h
  return counters
}

/** The route as evaluation reads it, coordinates to 6 places (about 0.1 m) as the answer shows them. */
const trackOf = (r: EngineRoute, regions: ReadonlyArray<RegionLength>): RouteTrack => ({
  coordinates: r.coordinates.map(([lng, lat]) => [round(lng, 6), round(lat, 6)] as const),
  // distance and time along stay exact: a refetch projects the same arrival times as the call
  along_m: r.along_m,
  along_s: r.along_s,
  distance_m: r.distance_m,
  duration_s: r.duration_s,
  // kept with the route for its mileage table, and its borders for the hours of service on a refetch
  regions,
  ...(r.crossings ? { crossings: r.crossings } : {})
})

/**
 * Where a hazard sits: the engine's key of the road piece under it on this route, and every road
 * within the hazard buffer of its position (a route along any of them would find it beside the
 * road again: one round moves off it for good, not one road piece a round).
 */
const exclusionAt = (route: EngineRoute, w: Warning, bufferM: number): Exclusion => {
  const g = w.geometry
  const [lng, lat] =
    g.type === "Point"
      ? (g.coordinates as [number, number])
      : route.coordinates[Math.min(w.segment, route.coordinates.length - 1)]
  return { lat, lng, radius_m: bufferM, edge_key: route.segment_keys[w.segment] }
}

const shapeRoute = (
  r: EngineRoute,
  req: PlanRequest,
  tolls: TollTable | undefined,
  truck: { axle_count?: number; weight_t: number; height_m: number; hazmat: boolean }
) => {
  const priced = tolls?.sectionTolls(
    r.sections,
    { ...truck, profile: req.truck.profile },
    req.currency,
    req.toll_payment
  )
  const sections = r.sections.map((s, i) => ({
    distance_m: round(s.distance_m),
    duration_s: round(s.duration_s),
    summary: s.summary,
    ...(priced?.[i] ? { tolls: [priced[i]] } : {})
  }))
  const costs = tolls ? tollCosts(sections) : []
  return {
    summary: {
      distance_m: round(r.distance_m),
      duration_s: round(r.duration_s),
      has_tolls: r.sections.some((s) => s.toll !== null),
      ...(costs.length > 0 ? { toll_costs: costs } : {})
    },
    geometry: {
      type: "LineString" as const,
      coordinates: r.coordinates.map(([lng, lat]) => [round(lng, 6), round(lat, 6)])
    },
    sections
  }
}
