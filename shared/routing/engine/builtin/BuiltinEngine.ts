import { Effect, Layer } from "effect"
import { readFileSync } from "node:fs"
import { countryOfRegion } from "../../../domain/Jurisdictions.js"
import { haversineM } from "../../../geo/distance.js"
import { RoadNetwork } from "../../network/NetworkFile.js"
import type { RoadProps } from "../../network/RoadLine.js"
import { limitSource, limitTitle, violatedLimits } from "./roadLimits.js"
import {
  type EdgeLocator,
  EngineUnavailable,
  type BorderPassage,
  type EngineRequest,
  type LimitAvoided,
  type EngineRoute,
  type EngineSection,
  DEFAULT_MAX_SPEED_KMH,
  type RegionLength,
  RouteNotFound,
  RoutingEngine,
  type RoutingEngineShape,
  standingStill
} from "../RoutingEngine.js"
import { EdgeCovers } from "./edgeCovers.js"
import { type Piece, RoadGraph, type SearchRules, type Snap } from "./RoadGraph.js"
import { edgeSlowdowns, NO_SLOWDOWN_TABLES, readTruckSpeedTables, type SpeedTables, TruckTimes } from "./truckSpeeds.js"

/** An origin, waypoint or destination farther than this from the network is refused. */
export const SNAP_MAX_M = 25_000
/** Alternatives: the edges of routes found so far cost this much more on the next search… */
const ALT_PENALTY = 1.5
/** …and a candidate is kept when at most this share of it repeats a kept route, and it is not too slow. */
const ALT_MAX_OVERLAP = 0.7
const ALT_MAX_STRETCH = 1.5
/** `avoid` is a hard rule; when it leaves no route, avoided roads cost this many times more instead. */
const AVOID_FALLBACK_PENALTY = 20
/** Walls of barriers known ahead freed around one point, one inside another at most this deep. */
const WALL_RELEASES = 3

const pointName = (i: number, n: number) => (i === 0 ? "origin" : i === n - 1 ? "destination" : `waypoints[${i - 1}]`)

const roadLabel = (p: RoadProps) => {
  const ref = p.ref?.split(";").join(" / ")
  return ref && p.name ? `${ref} (${p.name})` : (ref ?? p.name ?? (p.ferry ? "ferry" : "unnamed road"))
}

/** The built-in engine over a loaded network, its trucks slowed where the speed tables say (towns, grades). */
export const makeBuiltinEngine = (
  net: RoadNetwork,
  graph: RoadGraph = new RoadGraph(net),
  speedTables: SpeedTables = NO_SLOWDOWN_TABLES
): RoutingEngineShape => {
  const times = new TruckTimes(net, edgeSlowdowns(net, speedTables), speedTables)
  const violates = (p: RoadProps, req: EngineRequest) => violatedLimits(p, req.truck).length > 0
  const avoided = (p: RoadProps, req: EngineRequest) =>
    (req.avoid.toll_road && p.toll !== null) || (req.avoid.ferry && p.ferry) || (req.avoid.tunnel && p.tunnel)

  const assemble = (pieces: ReadonlyArray<Piece>, origin: Snap): EngineRoute => {
    const coordinates: Array<[number, number]> = []
    const along_m: Array<number> = []
    const along_s: Array<number> = []
    const sections: Array<EngineSection> = []
    const segment_keys: Array<string> = []
    const regions = new Map<string, { distance_m: number; toll_m: number }>()
    let regionless = false
    const crossings: Array<BorderPassage> = []
    let lastRegion: { code: string; country: "US" | "CA"; road: string } | undefined
    let [m, s] = [0, 0]
    for (const piece of pieces) {
      if (piece.e < 0) continue
      const props = net.props[net.edgeProp[piece.e]]
      const startM = m
      const step = piece.a <= piece.b ? 1 : -1
      const secPerM = piece.m > 0 ? piece.s / piece.m : 0
      const startIndex = Math.max(0, coordinates.length - 1)
      for (let j = piece.a; ; j += step) {
        const [lng, lat] = [net.shapeLng[j], net.shapeLat[j]]
        if (coordinates.length === 0) {
          coordinates.push([lng, lat])
          along_m.push(0)
          along_s.push(0)
        } else if (j !== piece.a || coordinates.length === 0) {
          const [plng, plat] = coordinates[coordinates.length - 1]
          const d = haversineM(plat, plng, lat, lng) * net.meta.length_factor
          m += d
          s += d * secPerM
          coordinates.push([lng, lat])
          along_m.push(m)
          along_s.push(s)
          segment_keys.push(String(piece.e))
        }
        if (j === piece.b) break
      }
      const country = props.region === null ? undefined : countryOfRegion(props.region)
      if (country !== undefined) {
        const road = roadLabel(props)
        if (lastRegion && lastRegion.country !== country)
          crossings.push({
            index: startIndex,
            along_m: along_m[startIndex],
            along_s: along_s[startIndex],
            from_region: lastRegion.code,
            to_region: props.region!,
            road: lastRegion.road === road ? road : `${lastRegion.road} → ${road}`
          })
        lastRegion = { code: props.region!, country, road }
      }
      if (props.region === null) regionless = true
      else {
        const r = regions.get(props.region) ?? { distance_m: 0, toll_m: 0 }
        r.distance_m += m - startM
        if (props.toll !== null) r.toll_m += m - startM
        regions.set(props.region, r)
      }
      const summary = roadLabel(props)
      const last = sections[sections.length - 1]
      if (last && last.summary === summary && last.toll === props.toll) {
        sections[sections.length - 1] = {
          ...last,
          to_region: props.region,
          to_index: coordinates.length - 1,
          distance_m: m - along_m[last.from_index],
          duration_s: s - along_s[last.from_index]
        }
      } else {
        sections.push({
          summary,
          toll: props.toll,
          to_region: props.region,
          from_index: startIndex,
          to_index: coordinates.length - 1,
          distance_m: m - along_m[startIndex],
          duration_s: s - along_s[startIndex]
        })
      }
    }
    const byRegion: Array<RegionLength> = [...regions].map(([region, r]) => ({ region, ...r }))
    if (coordinates.length < 2) {
      // origin = destination: the place where it starts, on the road it snapped to
      const region = net.props[net.edgeProp[origin.e]].region
      const still = standingStill(coordinates[0] ?? [net.shapeLng[origin.j], net.shapeLat[origin.j]], String(origin.e))
      return {
        ...still,
        distance_m: 0,
        duration_s: 0,
        sections: [],
        ...(region !== null ? { regions: [{ region, distance_m: 0, toll_m: 0 }] } : {})
      }
    }
    return {
      coordinates,
      along_m,
      along_s,
      distance_m: m,
      duration_s: s,
      sections,
      segment_keys,
      ...(regionless || byRegion.length === 0 ? {} : { regions: byRegion, crossings })
    }
  }

  const route: RoutingEngineShape["route"] = (req) =>
    Effect.suspend(() => {
      const seconds = times.secondsFor({
        max_speed_kmh: req.truck.max_speed_kmh ?? DEFAULT_MAX_SPEED_KMH,
        weight_t: req.truck.weight_t
      })
      const excluded = new Set<number>()
      // the road piece named, and every road within the radius (a route along any of them passes the place)
      for (const x of req.exclusions) {
        if (x.edge_key !== undefined && /^\d+$/.test(x.edge_key) && Number(x.edge_key) < net.edgeCount)
          excluded.add(Number(x.edge_key))
        for (const e of graph.edgesWithin(x.lat, x.lng, x.radius_m)) excluded.add(e)
      }
      // barriers known ahead keep the search off their pieces (a group passed again is prepared already)
      const standing = (req.excluded_keys ?? []).map(prepared)
      // pieces of theirs this request may use all the same
      const freed = new Set<number>()
      const keptOff = (e: number) => {
        for (let i = 0; i < standing.length; i++) if (standing[i][e] === 1) return !freed.has(e)
        return false
      }
      // a point on a closed road still snaps there: the closure is then reported, not silently skipped
      const usable = (e: number) => !violates(net.props[net.edgeProp[e]], req)
      const snaps = req.points.map((p) => graph.snap(p.lat, p.lng, SNAP_MAX_M, usable))
      for (const s of snaps) {
        // the piece a point lies on between junctions: the truck starts or ends there whatever lies beside it (at a
        // junction it may leave by any road). A barrier left there is judged on the route, and a reroute round moves
        // off it if it can
        if (s && s.j !== net.shapeStart[s.e] && s.j !== net.shapeStart[s.e + 1] - 1) freed.add(s.e)
      }
      const missing = snaps.findIndex((s) => s === undefined)
      if (missing >= 0) {
        const field = pointName(missing, req.points.length)
        const p = req.points[missing]
        // a road near enough that this truck may not drive: say which and why, or the caller sees only "no road"
        const near = graph.snap(p.lat, p.lng, SNAP_MAX_M, () => true)
        const props = near && net.props[net.edgeProp[near.e]]
        const broken = props ? violatedLimits(props, req.truck)[0] : undefined
        const why =
          props && broken
            ? `; the nearest road within ${SNAP_MAX_M / 1000} km is closed to it (${limitTitle(broken, props)})`
            : ""
        return Effect.fail(
          new RouteNotFound({
            field,
            message: `${field} is more than ${SNAP_MAX_M / 1000} km from any road this truck may drive${why}`
          })
        )
      }
      const penalty = new Map<number, number>()
      // per road kind (many edges share one), decided the first time a search meets it: 0 not yet, 1 no, 2 yes
      const barred = new Uint8Array(net.props.length)
      const shunned = new Uint8Array(net.props.length)
      let metBarred = false
      const barredKind = (k: number) =>
        (barred[k] === 0 ? (barred[k] = violates(net.props[k], req) ? 2 : 1) : barred[k]) === 2
      const isBarred = (k: number) => {
        const b = barredKind(k)
        if (b) metBarred = true
        return b
      }
      // a point walled in by barriers known ahead (a low bridge at the junction it starts from): the truck must pass
      // one of
      // them to start or arrive, so the pieces of theirs in that wall are freed, and only those
      if (standing.length > 0) {
        const walls = (e: number) => barredKind(net.edgeProp[e]) || excluded.has(e) || keptOff(e)
        for (let k = 0; k + 1 < snaps.length; k++) {
          for (const [at, other] of [
            [snaps[k]!, snaps[k + 1]!],
            [snaps[k + 1]!, snaps[k]!]
          ]) {
            for (let turn = 0; turn < WALL_RELEASES; turn++) {
              const theirs = (graph.wallAround(at, other, walls) ?? []).filter(keptOff)
              if (theirs.length === 0) break
              for (const e of theirs) freed.add(e)
            }
          }
        }
      }
      const isShunned = (k: number) =>
        (shunned[k] === 0 ? (shunned[k] = avoided(net.props[k], req) ? 2 : 1) : shunned[k]) === 2
      const rules = (avoidHard: boolean, withPenalties = true): SearchRules => ({
        seconds,
        blocked: (e) => {
          if (e < 0) return false
          const k = net.edgeProp[e]
          return isBarred(k) || (avoidHard && isShunned(k)) || (excluded.size > 0 && excluded.has(e)) || keptOff(e)
        },
        lifted: (e) =>
          e >= 0 &&
          barredKind(net.edgeProp[e]) &&
          !(avoidHard && isShunned(net.edgeProp[e])) &&
          !excluded.has(e) &&
          !keptOff(e),
        cost: (e, s) => {
          if (e < 0) return 0
          const extra = !avoidHard && isShunned(net.edgeProp[e]) ? AVOID_FALLBACK_PENALTY : 1
          return penalty.size === 0 || !withPenalties ? s * extra : s * (penalty.get(e) ?? 1) * extra
        }
      })
      /**
       * The limits the truck was kept from: the route the search finds when the truck's own
       * limits are lifted (closures, exclusions and avoid rules kept), and the limits on it that
       * this truck breaks. Asked only when the search met a barred road at all.
       */
      const limitsAvoided = (chosen: ReadonlyArray<Piece>): Array<LimitAvoided> => {
        const free = rules(hard, false)
        const unlimited = search({
          ...free,
          blocked: (e) =>
            e >= 0 && ((hard && isShunned(net.edgeProp[e])) || (excluded.size > 0 && excluded.has(e)) || keptOff(e))
        })
        if (!unlimited) return []
        const taken = new Set(chosen.map((p) => p.e))
        const out = new Map<string, LimitAvoided>()
        for (const piece of unlimited) {
          if (piece.e < 0 || taken.has(piece.e)) continue
          const props = net.props[net.edgeProp[piece.e]]
          for (const b of violatedLimits(props, req.truck)) {
            const title = limitTitle(b, props)
            if (!out.has(title))
              out.set(title, { ...b, title, source: limitSource(b, props), edge_key: String(piece.e) })
          }
        }
        return [...out.values()]
      }
      // whether a way past the truck's limits could have been faster than the last search's (else none was kept from
      // it)
      let liftedFaster = false
      const search = (r: SearchRules) => {
        const all: Array<Piece> = []
        liftedFaster = false
        for (let k = 0; k + 1 < snaps.length; k++) {
          // closures and barriers may wall a point in: say so without searching the continent
          if ((excluded.size > 0 || standing.length > 0) && graph.walledOff(snaps[k]!, snaps[k + 1]!, r))
            return undefined
          const leg = graph.path(snaps[k]!, snaps[k + 1]!, r)
          if (!leg) return undefined
          if (graph.liftedFloor < graph.cost * (1 - 1e-9)) liftedFaster = true
          all.push(...leg)
        }
        return all
      }
      let hard = true
      let best = search(rules(true))
      if (!best) {
        hard = false
        best = search(rules(false))
      }
      if (!best)
        return Effect.fail(
          new RouteNotFound({
            message:
              "no route for this truck connects these points (closures, restrictions or avoid rules cut every way)"
          })
        )
      const chosen = best
      const barredMet = metBarred && liftedFaster
      const found = [best]
      const bestSeconds = best.reduce((t, p) => t + p.s, 0)
      // alternatives for plain origin → destination requests: penalize what is taken, search again
      for (
        let attempt = 0;
        req.points.length === 2 && found.length <= req.alternatives && attempt < req.alternatives * 3;
        attempt++
      ) {
        for (const p of found[found.length - 1]) penalty.set(p.e, (penalty.get(p.e) ?? 1) * ALT_PENALTY)
        const cand = search(rules(hard))
        if (!cand) break
        const candM = cand.reduce((t, p) => t + p.m, 0)
        const candS = cand.reduce((t, p) => t + p.s, 0)
        const distinct = found.every((f) => {
          const edges = new Set(f.map((p) => p.e))
          return cand.filter((p) => edges.has(p.e)).reduce((t, p) => t + p.m, 0) <= ALT_MAX_OVERLAP * candM
        })
        if (distinct && candS <= ALT_MAX_STRETCH * bestSeconds) found.push(cand)
      }
      // worked out when first read: a reroute round's answer is judged and dropped without them,
      // and they cost a search of their own (without the alternatives' penalties)
      let limits: Array<LimitAvoided> | undefined
      return Effect.succeed({
        routes: found.map((pieces) => assemble(pieces, snaps[0]!)),
        credit: net.meta.credit,
        get limits_avoided() {
          return (limits ??= barredMet ? limitsAvoided(chosen) : [])
        }
      })
    })

  /**
   * A group of barrier pieces as one byte per edge (the search asks about every edge it relaxes),
   * worked out once per group passed: StandingBarriers passes the same one until its index changes.
   */
  const groups = new WeakMap<ReadonlyArray<string>, Uint8Array>()
  const prepared = (keys: ReadonlyArray<string>) => {
    let marks = groups.get(keys)
    if (!marks) {
      marks = new Uint8Array(net.edgeCount)
      for (const k of keys) {
        const e = Number(k)
        if (Number.isInteger(e) && e >= 0 && e < net.edgeCount) marks[e] = 1
      }
      groups.set(keys, marks)
    }
    return marks
  }

  const edgeCovers = new EdgeCovers(net)
  // one string per edge, shared by every barrier on it (an index holds a hundred thousand)
  const keyOf: Array<string | undefined> = []
  const locate: EdgeLocator = (lat, lng, radiusM) => {
    const out = new Map<string, number>()
    for (const [e, d] of graph.edgeDistances(lat, lng, radiusM)) out.set((keyOf[e] ??= String(e)), d)
    return out
  }
  return {
    name: "builtin",
    route,
    covers: (keys, bufferM) => edgeCovers.union(keys, bufferM),
    edgeLocator: Effect.succeed(locate)
  }
}

/**
 * The built-in engine from a network file (ROUTING_NETWORK_FILE). Loading takes a second or two
 * and some 150 MB, so it happens on the first route, or at start when `preload` is set.
 */
export const builtinEngineLayer = (file: string, preload: boolean, tablesDir?: string) =>
  Layer.scoped(
    RoutingEngine,
    Effect.gen(function* () {
      const load = yield* Effect.cached(
        Effect.gen(function* () {
          const t0 = performance.now()
          const net = yield* Effect.try({
            try: () => RoadNetwork.decode(readFileSync(file)),
            catch: (e) =>
              new EngineUnavailable({ message: `routing network ${file} could not be loaded: ${String(e)}` })
          })
          const tables = yield* Effect.try({
            try: () => (tablesDir === undefined ? NO_SLOWDOWN_TABLES : readTruckSpeedTables(tablesDir)),
            catch: (e) =>
              new EngineUnavailable({ message: `routing speed tables in ${tablesDir} could not be read: ${String(e)}` })
          })
          const engine = makeBuiltinEngine(net, new RoadGraph(net), tables)
          yield* Effect.logInfo(
            `routing network loaded: ${net.nodeCount} nodes, ${net.edgeCount} edges from ${file} in ${Math.round(performance.now() - t0)} ms`
          )
          return engine
        })
      )
      if (preload) yield* Effect.forkScoped(Effect.ignoreLogged(load))
      // a route's segment keys come from the loaded engine, so its covers are there when asked
      let loaded: RoutingEngineShape | undefined
      return {
        name: "builtin",
        route: (req) => Effect.flatMap(load, (engine) => (loaded = engine).route(req)),
        covers: (keys, bufferM) => loaded?.covers?.(keys, bufferM),
        edgeLocator: Effect.flatMap(load, (engine) => (loaded = engine).edgeLocator!)
      } satisfies RoutingEngineShape
    })
  )
