import KDBush from "kdbush"
import { around } from "geokdbush"
import FlatQueue from "flatqueue"
import Flatbush from "flatbush"
import { haversineM, metresToSegment } from "../../../geo/distance.js"
import type { RoadNetwork } from "../../network/NetworkFile.js"
import { type Arcs, buildArcs } from "./arcs.js"
import { pickLandmarks } from "./landmarks.js"

/** e of the zero-length join between a snapped origin or destination and the node it lies on */
export const AT_NODE = -1

/**
 * One way to drive part of an edge: shape points a → b of edge e (a > b drives it backwards).
 * A route's first and last pieces start or end mid-edge, where its origin and destination
 * were snapped.
 */
export interface Piece {
  readonly e: number
  readonly a: number
  readonly b: number
  readonly m: number
  readonly s: number
}

/** Decides per request which edges may be driven and what driving them costs (seconds). */
export interface SearchRules {
  readonly blocked: (e: number) => boolean
  /** the cost of `s` seconds' drive on edge e */
  readonly cost: (e: number, s: number) => number
  /**
   * of the blocked edges, those blocked only by the truck's own limits: `path` bounds what they could have saved
   * (`liftedFloor`)
   */
  readonly lifted?: (e: number) => boolean
  /** each edge's drive seconds for this truck (never below the network's own); absent: the network's */
  readonly seconds?: Float64Array
}

export interface Snap {
  readonly e: number
  /** shape point index of the snap point */
  readonly j: number
  readonly distanceM: number
}

/** ALT landmarks kept in memory (16 distances per node) */
const LANDMARKS = 16
/** parent code of a node reached straight from the origin with no piece (it lies on the node) */
const FROM_ORIGIN = -1

/** Partial length (m) along edge e between two of its shape points. */
const span = (net: RoadNetwork, e: number, a: number, b: number) => {
  const [lo, hi] = a < b ? [a, b] : [b, a]
  let m = 0
  for (let j = lo + 1; j <= hi; j++)
    m += haversineM(net.shapeLat[j - 1], net.shapeLng[j - 1], net.shapeLat[j], net.shapeLng[j])
  return m * net.meta.length_factor
}

/** Every line segment of the network in an R-tree (an edge of one shape point is a segment of its own). */
const segmentsOf = (net: RoadNetwork) => {
  const from: Array<number> = []
  const to: Array<number> = []
  for (let e = 0; e < net.edgeCount; e++) {
    const [first, last] = [net.shapeStart[e], net.shapeStart[e + 1] - 1]
    if (last <= first) {
      from.push(first)
      to.push(first)
    }
    for (let j = first; j < last; j++) {
      from.push(j)
      to.push(j + 1)
    }
  }
  // Flatbush wants one item at least; a network without edges gets a box no place is near
  const index = new Flatbush(Math.max(1, from.length))
  const { shapeLat: lat, shapeLng: lng } = net
  for (let k = 0; k < from.length; k++) {
    const [a, b] = [from[k], to[k]]
    index.add(Math.min(lng[a], lng[b]), Math.min(lat[a], lat[b]), Math.max(lng[a], lng[b]), Math.max(lat[a], lat[b]))
  }
  if (from.length === 0) index.add(1e9, 1e9, 1e9, 1e9)
  index.finish()
  return { index, from: Uint32Array.from(from), to: Uint32Array.from(to) }
}

/**
 * The built-in engine's graph: the network's arcs in typed arrays (both directions unless
 * oneway), searched with A* on a flat binary heap (flatqueue). The heuristic is the larger of
 * the straight line at the network's top speed and the ALT landmark bound; both never
 * overestimate a drive time and are consistent (costs only ever rise above edge seconds), so
 * the first time the destination leaves the heap its route is the fastest. Origins and
 * destinations snap to the nearest shape point of the largest connected part (a kdbush index).
 */
export class RoadGraph {
  readonly arcs: Arcs
  /** every edge both ways: what reaches what at all, oneway or not */
  private readonly twoWay: Arcs
  readonly topSpeedMs: number
  private readonly shapeIndex: KDBush
  private readonly shapeEdge: Uint32Array
  /** one box per line segment of the network: segment k runs from shape point from[k] to to[k] of one edge */
  private readonly segments: ReturnType<typeof segmentsOf>
  private readonly component: Int32Array
  private readonly mainComponent: number
  /** drive seconds between each landmark and every node over the network taken as two-way: node v's at v * count + l */
  private readonly landmarks: { count: number; dist: Float64Array }
  // one search's state, reused: a node's entries hold for this search only where its stamp is the search's number
  private readonly g: Float64Array
  private readonly h: Float64Array
  private readonly parent: Int32Array
  private readonly prev: Int32Array
  private readonly stamp: Uint32Array
  private readonly closed: Uint32Array
  private readonly queue = new FlatQueue<number>()
  private search = 0
  /** nodes the last search settled (the benchmark prints them) */
  settled = 0
  /** the last path's cost */
  cost = Infinity
  /**
   * The least cost any way through a `lifted` edge could have had in the last search: at least
   * the cost of the path found, no way past the truck's limits would have been faster
   */
  liftedFloor = Infinity

  constructor(readonly net: RoadNetwork) {
    this.arcs = buildArcs(net, false)
    const twoWay = buildArcs(net, true)
    this.twoWay = twoWay
    this.topSpeedMs = Math.max(...net.props.map((p) => p.speed_kph)) / 3.6
    this.component = this.components(twoWay)
    const sizes = new Map<number, number>()
    for (const c of this.component) sizes.set(c, (sizes.get(c) ?? 0) + 1)
    this.mainComponent = [...sizes.entries()].sort((x, y) => y[1] - x[1])[0]?.[0] ?? 0
    this.shapeEdge = new Uint32Array(net.shapeLat.length)
    for (let e = 0; e < net.edgeCount; e++)
      for (let j = net.shapeStart[e]; j < net.shapeStart[e + 1]; j++) this.shapeEdge[j] = e
    this.shapeIndex = new KDBush(net.shapeLat.length)
    for (let j = 0; j < net.shapeLat.length; j++) this.shapeIndex.add(net.shapeLng[j], net.shapeLat[j])
    this.shapeIndex.finish()
    this.segments = segmentsOf(net)
    this.landmarks = pickLandmarks(twoWay, net, this.component, this.mainComponent, LANDMARKS)
    // the destination is one more node, numbered nodeCount
    const n = net.nodeCount + 1
    this.g = new Float64Array(n)
    this.h = new Float64Array(n)
    this.parent = new Int32Array(n)
    this.prev = new Int32Array(n)
    this.stamp = new Uint32Array(n)
    this.closed = new Uint32Array(n)
  }

  /** undirected connected parts, by node */
  private components(twoWay: Arcs): Int32Array {
    const comp = new Int32Array(this.net.nodeCount).fill(-1)
    let c = 0
    for (let s = 0; s < this.net.nodeCount; s++) {
      if (comp[s] >= 0) continue
      const stack = [s]
      comp[s] = c
      while (stack.length > 0) {
        const v = stack.pop()!
        for (let k = twoWay.start[v]; k < twoWay.start[v + 1]; k++) {
          const n = twoWay.to[k]
          if (comp[n] < 0) {
            comp[n] = c
            stack.push(n)
          }
        }
      }
      c++
    }
    return comp
  }

  /** nearest shape point on the main network within maxM of an edge the truck may drive, or undefined */
  snap(lat: number, lng: number, maxM: number, usable: (e: number) => boolean): Snap | undefined {
    const [j] = around(this.shapeIndex, lng, lat, 1, maxM / 1000, (j) => {
      const e = this.shapeEdge[j]
      return this.component[this.net.edgeFrom[e]] === this.mainComponent && usable(e)
    })
    if (j === undefined) return undefined
    return { e: this.shapeEdge[j], j, distanceM: haversineM(lat, lng, this.net.shapeLat[j], this.net.shapeLng[j]) }
  }

  /** edges with a shape point within radiusM of a place */
  edgesNear(lat: number, lng: number, radiusM: number): Array<number> {
    return [...new Set(around(this.shapeIndex, lng, lat, Infinity, radiusM / 1000).map((j) => this.shapeEdge[j]))]
  }

  /**
   * Edges whose line passes within radiusM of a place: every road a route could take past it
   * (shape points alone miss the middle of segments kilometres long).
   */
  edgesWithin(lat: number, lng: number, radiusM: number): Array<number> {
    return [...this.edgeDistances(lat, lng, radiusM).keys()]
  }

  /** Edges whose line passes within radiusM of a place, each with its nearest distance in metres. */
  edgeDistances(lat: number, lng: number, radiusM: number): Map<number, number> {
    const { shapeLat, shapeLng } = this.net
    const dLat = (radiusM + 1) / 110_574
    const dLng = (radiusM + 1) / (111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)))
    const out = new Map<number, number>()
    const { index, from, to } = this.segments
    for (const k of index.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
      const [a, b] = [from[k], to[k]]
      const e = this.shapeEdge[a]
      const d = metresToSegment(lat, lng, shapeLat[a], shapeLng[a], shapeLat[b], shapeLng[b])
      if (d <= radiusM && !(d >= (out.get(e) ?? Infinity))) out.set(e, d)
    }
    return out
  }

  /** the part of edge e from shape point a to b, its seconds in proportion to its length */
  private piece(e: number, a: number, b: number, seconds = this.net.edgeSeconds): Piece {
    const m = span(this.net, e, a, b)
    return { e, a, b, m, s: (m / this.net.edgeLengthM[e] || 0) * seconds[e] }
  }

  /** the whole edge an arc drives */
  private arcPiece(k: number, seconds: Float64Array): Piece {
    const net = this.net
    const e = this.arcs.edge[k]
    const [first, last] = [net.shapeStart[e], net.shapeStart[e + 1] - 1]
    return this.arcs.forward[k]
      ? { e, a: first, b: last, m: net.edgeLengthM[e], s: seconds[e] }
      : { e, a: last, b: first, m: net.edgeLengthM[e], s: seconds[e] }
  }

  /**
   * Whether the rules wall a destination into a small part of the network that the origin lies
   * outside: a walk from it over every unblocked edge, either way, ends within `limit` nodes
   * without meeting the origin's edge. A search would then fail only after settling everything
   * the origin reaches (most of the continent, 80 ms); this says so in a fraction of a
   * millisecond. False when the walk outgrows the limit (no answer: search).
   */
  walledOff(from: Snap, to: Snap, rules: SearchRules, limit = 2000): boolean {
    const net = this.net
    if (from.e === to.e) return false
    // a destination on a node is reached by the roads there; mid-edge, only along its own edge
    const [first, last] = [net.shapeStart[to.e], net.shapeStart[to.e + 1] - 1]
    const atNode = to.j === first ? net.edgeFrom[to.e] : to.j === last ? net.edgeTo[to.e] : undefined
    if (rules.blocked(to.e) && atNode === undefined) return true
    return (
      this.patch(
        rules.blocked(to.e) ? [atNode!] : [net.edgeFrom[to.e], net.edgeTo[to.e]],
        [net.edgeFrom[from.e], net.edgeTo[from.e]],
        rules.blocked,
        limit
      ) !== undefined
    )
  }

  /**
   * A walk from `seeds` over every unblocked edge, either way: the nodes it reached and the
   * blocked arcs it met, or undefined when it meets one of `targets` or outgrows `limit` nodes
   * (the seeds are not walled in away from them).
   */
  private patch(
    seeds: ReadonlyArray<number>,
    targets: ReadonlyArray<number>,
    blocked: (e: number) => boolean,
    limit: number
  ) {
    const { start, edge, to: head } = this.twoWay
    const seen = new Set<number>(seeds)
    if (targets.some((t) => seen.has(t))) return undefined
    const stack = [...seen]
    const met: Array<number> = []
    while (stack.length > 0) {
      const v = stack.pop()!
      for (let k = start[v]; k < start[v + 1]; k++) {
        const u = head[k]
        if (seen.has(u)) continue
        if (blocked(edge[k])) {
          met.push(k)
          continue
        }
        if (seen.size >= limit || targets.includes(u)) return undefined
        seen.add(u)
        stack.push(u)
      }
    }
    return { seen, met }
  }

  /** Where a point meets the graph: its node, or mid-edge both of its edge's ends. */
  private nodesOf(at: Snap): Array<number> {
    const net = this.net
    return at.j === net.shapeStart[at.e]
      ? [net.edgeFrom[at.e]]
      : at.j === net.shapeStart[at.e + 1] - 1
        ? [net.edgeTo[at.e]]
        : [net.edgeFrom[at.e], net.edgeTo[at.e]]
  }

  /**
   * The blocked edges walling a point in away from another: a walk from it over every unblocked
   * edge, either way, ends within `limit` nodes without reaching the other's edge. Undefined when
   * it reaches it or outgrows the limit (not walled in). At a node the walk starts there,
   * mid-edge at both its edge's ends.
   */
  wallAround(at: Snap, other: Snap, blocked: (e: number) => boolean, limit = 2000): Array<number> | undefined {
    const walked = this.patch(this.nodesOf(at), this.nodesOf(other), blocked, limit)
    if (!walked) return undefined
    const { edge, to: head } = this.twoWay
    // the wall: the blocked arcs leading out of the patch (a blocked road within it walls nothing in)
    return [...new Set(walked.met.filter((k) => !walked.seen.has(head[k])).map((k) => edge[k]))]
  }

  /**
   * Fastest pieces from one snap to another under the rules, or undefined when none connects.
   * The origin's pieces (from its snap point to its edge's ends) seed the search; the
   * destination is a node of its own, reached from its edge's ends. `heuristic: false` makes
   * it a plain Dijkstra (the benchmark's floor).
   */
  path(from: Snap, to: Snap, rules: SearchRules, heuristic = true): Array<Piece> | undefined {
    const net = this.net
    const sec = rules.seconds ?? net.edgeSeconds
    const { start, edge, to: head } = this.arcs
    const { g, h, parent, prev, stamp, closed, queue } = this
    const END = net.nodeCount
    const search = ++this.search
    queue.clear()
    this.settled = 0
    this.liftedFloor = Infinity
    this.cost = Infinity
    // pieces joining origin and destination to the network; parent codes −2, −3, … name them
    const joins: Array<Piece> = []
    const join = (p: Piece) => -2 - (joins.push(p) - 1)
    const ends = (snap: Snap) => {
      const e = snap.e
      const [first, last] = [net.shapeStart[e], net.shapeStart[e + 1] - 1]
      return {
        e,
        first,
        last,
        oneway: net.props[net.edgeProp[e]].oneway,
        node: snap.j === first ? net.edgeFrom[e] : snap.j === last ? net.edgeTo[e] : undefined
      }
    }
    // lower bounds to the destination: landmark distances of its snap point through the nearer end of its edge
    const L = this.landmarks.count
    const lm = this.landmarks.dist
    const target = ends(to)
    const endLm = new Float64Array(L)
    const toFirst = this.piece(to.e, target.first, to.j).s
    const toLast = this.piece(to.e, to.j, target.last).s
    for (let l = 0; l < L; l++)
      endLm[l] = Math.min(lm[net.edgeFrom[to.e] * L + l] + toFirst, lm[net.edgeTo[to.e] * L + l] + toLast)
    const [tLat, tLng] = [net.shapeLat[to.j], net.shapeLng[to.j]]
    const bound = (v: number) => {
      if (v === END || !heuristic) return 0
      let best = haversineM(net.nodeLat[v], net.nodeLng[v], tLat, tLng) / this.topSpeedMs
      const base = v * L
      for (let l = 0; l < L; l++) {
        const diff = Math.abs(lm[base + l] - endLm[l])
        if (diff > best && diff !== Infinity) best = diff
      }
      return best
    }
    const relax = (v: number, cost: number, code: number, from: number) => {
      if (stamp[v] !== search) {
        stamp[v] = search
        g[v] = Infinity
        h[v] = bound(v)
      }
      if (cost < g[v]) {
        g[v] = cost
        parent[v] = code
        prev[v] = from
        queue.push(v, cost + h[v])
      }
    }
    const enter = (node: number, p: Piece | undefined, from: number, at: number) => {
      if (p === undefined) relax(node, at, FROM_ORIGIN, from)
      else if (!rules.blocked(p.e)) relax(node, at + rules.cost(p.e, p.s), join(p), from)
    }
    // leaving the origin towards its edge's end (and its start unless oneway), or from the node it lies on
    const origin = ends(from)
    if (origin.node !== undefined) enter(origin.node, undefined, -1, 0)
    else {
      enter(net.edgeTo[from.e], this.piece(from.e, from.j, origin.last, sec), -1, 0)
      if (!origin.oneway) enter(net.edgeFrom[from.e], this.piece(from.e, from.j, origin.first, sec), -1, 0)
    }
    // origin and destination on one edge, in driving order: drive straight along it
    if (from.e === to.e && (!origin.oneway || from.j <= to.j)) enter(END, this.piece(from.e, from.j, to.j, sec), -1, 0)
    // arriving at the destination: from the node it lies on, or along its edge from either end
    const exits: Array<[number, Piece | undefined]> =
      target.node !== undefined
        ? [[target.node, undefined]]
        : [
            [net.edgeFrom[to.e], this.piece(to.e, target.first, to.j, sec)],
            ...(target.oneway ? [] : [[net.edgeTo[to.e], this.piece(to.e, target.last, to.j, sec)] as [number, Piece]])
          ]
    while (queue.length > 0) {
      const v = queue.pop()!
      if (closed[v] === search) continue
      closed[v] = search
      this.settled++
      if (v === END) break
      for (const [node, p] of exits) if (node === v) enter(END, p, v, g[v])
      for (let k = start[v]; k < start[v + 1]; k++) {
        const u = head[k]
        if (closed[u] === search) continue
        const e = edge[k]
        if (rules.blocked(e)) {
          if (rules.lifted?.(e)) this.liftedFloor = Math.min(this.liftedFloor, g[v] + rules.cost(e, sec[e]) + bound(u))
          continue
        }
        relax(u, g[v] + rules.cost(e, sec[e]), k, v)
      }
    }
    if (closed[END] !== search) return undefined
    this.cost = g[END]
    const pieces: Array<Piece> = []
    for (let v = END; v !== -1; v = prev[v]) {
      const code = parent[v]
      if (code >= 0) pieces.push(this.arcPiece(code, sec))
      else if (code <= -2) pieces.push(joins[-2 - code])
    }
    return pieces.reverse()
  }
}
