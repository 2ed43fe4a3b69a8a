import FlatQueue from "flatqueue"
import type { RoadNetwork } from "../../network/NetworkFile.js"
import type { Arcs } from "./arcs.js"

/** Single-source drive seconds to every node over two-way arcs (Dijkstra on flatqueue). */
const twoWayDistances = (arcs: Arcs, net: RoadNetwork, source: number): Float64Array => {
  const dist = new Float64Array(net.nodeCount).fill(Infinity)
  const queue = new FlatQueue<number>()
  dist[source] = 0
  queue.push(source, 0)
  while (queue.length > 0) {
    const d = queue.peekValue()!
    const v = queue.pop()!
    if (d > dist[v]) continue
    for (let k = arcs.start[v]; k < arcs.start[v + 1]; k++) {
      const u = arcs.to[k]
      const nd = d + net.edgeSeconds[arcs.edge[k]]
      if (nd < dist[u]) {
        dist[u] = nd
        queue.push(u, nd)
      }
    }
  }
  return dist
}

/**
 * ALT landmarks: the first is the main network's node farthest from an arbitrary one, each
 * next the node farthest from all chosen so far. Differences of landmark distances bound a
 * drive time from below (triangle inequality), far tighter than a straight line. The result
 * holds node v's distance to landmark l at v * k + l, so one node's bounds sit together.
 */
export const pickLandmarks = (
  arcs: Arcs,
  net: RoadNetwork,
  component: Int32Array,
  mainComponent: number,
  k: number
): { count: number; dist: Float64Array } => {
  const main: Array<number> = []
  for (let v = 0; v < net.nodeCount; v++) if (component[v] === mainComponent) main.push(v)
  if (main.length === 0) return { count: 0, dist: new Float64Array(0) }
  const out = new Float64Array(net.nodeCount * k)
  const nearest = new Float64Array(net.nodeCount).fill(Infinity)
  let next = main[0]
  for (let i = 0; i <= k; i++) {
    const d = twoWayDistances(arcs, net, next)
    // the first run only finds a far starting point
    if (i > 0) for (let v = 0; v < net.nodeCount; v++) out[v * k + i - 1] = d[v]
    let best = -1
    for (const v of main) {
      nearest[v] = i === 0 ? d[v] : Math.min(nearest[v], d[v])
      if (Number.isFinite(nearest[v]) && (best < 0 || nearest[v] > nearest[best])) best = v
    }
    if (i === 0) nearest.fill(Infinity)
    next = best
  }
  return { count: k, dist: out }
}
