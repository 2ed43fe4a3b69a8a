import KDBush from "kdbush"
import { around } from "geokdbush"
import createGraph, { type Graph, type Link, type NodeId } from "ngraph.graph"
import ngraphPath from "ngraph.path"
import { haversineM } from "../geometry.js"
import type { RoadNetwork } from "../network/NetworkFile.js"
import { pickLandmarks } from "./landmarks.js"

/** e of the zero-length link between a virtual start or end and the node it snapped onto */
export const AT_NODE = -1

/**
 * One way to drive part of an edge: shape points a → b of edge e (a > b drives it backwards).
 * Whole edges are stored on the graph's links; a route's first and last pieces start or end
 * mid-edge, where its origin and destination were snapped.
 */
export interface Piece {
  readonly e: number
  readonly a: number
  readonly b: number
  readonly m: number
  readonly s: number
}

/** Decides per request which pieces may be driven and what each costs (seconds). */
export interface SearchRules {
  readonly blocked: (e: number) => boolean
  readonly cost: (p: Piece) => number
}

export interface Snap {
  readonly e: number
  /** shape point index of the snap point */
  readonly j: number
  readonly distanceM: number
}

const START = -1
const END = -2
/** ALT landmarks kept in memory (each a Float64Array of the node count) */
const LANDMARKS = 16

/** Partial length (m) along edge e between two of its shape points. */
const span = (net: RoadNetwork, e: number, a: number, b: number) => {
  const [lo, hi] = a < b ? [a, b] : [b, a]
  let m = 0
  for (let j = lo + 1; j <= hi; j++) m += haversineM(net.shapeLat[j - 1], net.shapeLng[j - 1], net.shapeLat[j], net.shapeLng[j])
  return m * net.meta.length_factor
}

/**
 * The built-in engine's graph: ngraph.graph links over the network's edges (both directions
 * unless oneway), searched with ngraph.path's NBA* (bidirectional A*). The heuristic is the
 * larger of the straight line at the network's top speed and the ALT landmark bound; both
 * never overestimate a drive time (costs only ever rise above edge seconds). Origins and
 * destinations snap to the nearest shape point of the largest connected part (a kdbush index).
 */
export class RoadGraph {
  readonly graph: Graph<undefined, Piece>
  readonly topSpeedMs: number
  private readonly shapeIndex: KDBush
  private readonly shapeEdge: Uint32Array
  private readonly component: Int32Array
  private readonly mainComponent: number
  /** drive seconds between each landmark and every node, over the graph taken as two-way */
  private readonly landmarks: ReadonlyArray<Float64Array>

  constructor(readonly net: RoadNetwork) {
    this.graph = createGraph<undefined, Piece>({ multigraph: true })
    for (let i = 0; i < net.nodeCount; i++) this.graph.addNode(i)
    for (let e = 0; e < net.edgeCount; e++) {
      const [a, b] = [net.shapeStart[e], net.shapeStart[e + 1] - 1]
      const m = net.edgeLengthM[e]
      const s = net.edgeSeconds[e]
      this.graph.addLink(net.edgeFrom[e], net.edgeTo[e], { e, a, b, m, s })
      if (!net.props[net.edgeProp[e]].oneway) this.graph.addLink(net.edgeTo[e], net.edgeFrom[e], { e, a: b, b: a, m, s })
    }
    this.topSpeedMs = Math.max(...net.props.map((p) => p.speed_kph)) / 3.6
    this.component = this.components()
    const sizes = new Map<number, number>()
    for (const c of this.component) sizes.set(c, (sizes.get(c) ?? 0) + 1)
    this.mainComponent = [...sizes.entries()].sort((x, y) => y[1] - x[1])[0]?.[0] ?? 0
    this.shapeEdge = new Uint32Array(net.shapeLat.length)
    for (let e = 0; e < net.edgeCount; e++) for (let j = net.shapeStart[e]; j < net.shapeStart[e + 1]; j++) this.shapeEdge[j] = e
    this.shapeIndex = new KDBush(net.shapeLat.length)
    for (let j = 0; j < net.shapeLat.length; j++) this.shapeIndex.add(net.shapeLng[j], net.shapeLat[j])
    this.shapeIndex.finish()
    this.landmarks = pickLandmarks(this.graph, net, this.component, this.mainComponent, LANDMARKS)
  }

  /** undirected connected parts, by node */
  private components(): Int32Array {
    const comp = new Int32Array(this.net.nodeCount).fill(-1)
    let c = 0
    for (let s = 0; s < this.net.nodeCount; s++) {
      if (comp[s] >= 0) continue
      const stack = [s]
      comp[s] = c
      while (stack.length > 0) {
        const v = stack.pop()!
        this.graph.forEachLinkedNode(v, (n) => {
          if (comp[n.id as number] < 0) {
            comp[n.id as number] = c
            stack.push(n.id as number)
          }
        }, false)
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
   * Fastest pieces from one snap to another under the rules, or undefined when none connects.
   * Virtual start and end nodes join the snapped edges for the one search; the search is
   * synchronous, so no other request sees them.
   */
  path(from: Snap, to: Snap, rules: SearchRules): Array<Piece> | undefined {
    const net = this.net
    const g = this.graph
    const added: Array<Link<Piece>> = []
    const join = (virtual: NodeId, snap: Snap, outbound: boolean) => {
      const e = snap.e
      const [first, last] = [net.shapeStart[e], net.shapeStart[e + 1] - 1]
      const oneway = net.props[net.edgeProp[e]].oneway
      const piece = (a: number, b: number): Piece => {
        const m = span(net, e, a, b)
        return { e, a, b, m, s: (m / net.edgeLengthM[e] || 0) * net.edgeSeconds[e] }
      }
      // snapped onto a node: join the node itself, so every road there can be taken
      const node = snap.j === first ? net.edgeFrom[e] : snap.j === last ? net.edgeTo[e] : undefined
      if (node !== undefined) {
        const zero: Piece = { e: AT_NODE, a: snap.j, b: snap.j, m: 0, s: 0 }
        added.push(outbound ? g.addLink(virtual, node, zero) : g.addLink(node, virtual, zero))
        return
      }
      // leaving the snap point towards the edge's end (and its start unless oneway); arriving the other way
      if (outbound) {
        added.push(g.addLink(virtual, net.edgeTo[e], piece(snap.j, last)))
        if (!oneway) added.push(g.addLink(virtual, net.edgeFrom[e], piece(snap.j, first)))
      } else {
        added.push(g.addLink(net.edgeFrom[e], virtual, piece(first, snap.j)))
        if (!oneway) added.push(g.addLink(net.edgeTo[e], virtual, piece(last, snap.j)))
      }
    }
    g.addNode(START)
    g.addNode(END)
    join(START, from, true)
    join(END, to, false)
    // origin and destination on one edge, in driving order: drive straight along it
    if (from.e === to.e && (!net.props[net.edgeProp[from.e]].oneway || from.j <= to.j)) {
      const m = span(net, from.e, from.j, to.j)
      added.push(g.addLink(START, END, { e: from.e, a: from.j, b: to.j, m, s: (m / net.edgeLengthM[from.e] || 0) * net.edgeSeconds[from.e] }))
    }
    // landmark distances of the virtual ends: through whichever end node of their edge is nearer
    const virtualLm = (snap: Snap) => {
      const e = snap.e
      const [first, last] = [net.shapeStart[e], net.shapeStart[e + 1] - 1]
      const toFrom = (span(net, e, first, snap.j) / net.edgeLengthM[e] || 0) * net.edgeSeconds[e]
      const toTo = (span(net, e, snap.j, last) / net.edgeLengthM[e] || 0) * net.edgeSeconds[e]
      return this.landmarks.map((d) => Math.min(d[net.edgeFrom[e]] + toFrom, d[net.edgeTo[e]] + toTo))
    }
    const startLm = virtualLm(from)
    const endLm = virtualLm(to)
    const lm = (id: NodeId, l: number) => (id === START ? startLm[l] : id === END ? endLm[l] : this.landmarks[l][id as number])
    const pos = (id: NodeId): [number, number] => {
      if (id === START) return [net.shapeLat[from.j], net.shapeLng[from.j]]
      if (id === END) return [net.shapeLat[to.j], net.shapeLng[to.j]]
      return [net.nodeLat[id as number], net.nodeLng[id as number]]
    }
    try {
      const finder = ngraphPath.nba<undefined, Piece>(g, {
        oriented: true,
        blocked: (_a, _b, link) => rules.blocked(link.data.e),
        distance: (_a, _b, link) => rules.cost(link.data),
        heuristic: (a, b) => {
          const [p, q] = [pos(a.id), pos(b.id)]
          let h = haversineM(p[0], p[1], q[0], q[1]) / this.topSpeedMs
          for (let l = 0; l < this.landmarks.length; l++) {
            const diff = Math.abs(lm(a.id, l) - lm(b.id, l))
            if (diff > h && Number.isFinite(diff)) h = diff
          }
          return h
        }
      })
      const nodes = finder.find(START, END).map((n) => n.id).reverse()
      if (nodes.length < 2 || nodes[0] !== START) return undefined
      const pieces: Array<Piece> = []
      for (let k = 0; k + 1 < nodes.length; k++) {
        let best: Piece | undefined
        g.forEachLinkedNode(nodes[k], (_n, link) => {
          if (link.toId !== nodes[k + 1] || rules.blocked(link.data.e)) return
          if (!best || rules.cost(link.data) < rules.cost(best)) best = link.data
        }, true)
        if (!best) return undefined
        pieces.push(best)
      }
      return pieces
    } finally {
      for (const l of added) g.removeLink(l)
      g.removeNode(START)
      g.removeNode(END)
    }
  }
}
