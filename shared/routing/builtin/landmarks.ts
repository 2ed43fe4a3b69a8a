import TinyQueue from "tinyqueue"
import type { Graph } from "ngraph.graph"
import type { RoadNetwork } from "../network/NetworkFile.js"
import type { Piece } from "./RoadGraph.js"

/** Single-source drive seconds to every node, edges taken both ways (Dijkstra on tinyqueue). */
const twoWayDistances = (graph: Graph<undefined, Piece>, net: RoadNetwork, source: number): Float64Array => {
  const dist = new Float64Array(net.nodeCount).fill(Infinity)
  const queue = new TinyQueue<[number, number]>([[0, source]], (a, b) => a[0] - b[0])
  dist[source] = 0
  while (queue.length > 0) {
    const [d, v] = queue.pop()!
    if (d > dist[v]) continue
    graph.forEachLinkedNode(v, (n, link) => {
      const u = n.id as number
      const nd = d + net.edgeSeconds[link.data.e]
      if (nd < dist[u]) {
        dist[u] = nd
        queue.push([nd, u])
      }
    }, false)
  }
  return dist
}

/**
 * ALT landmarks: the first is the main network's node farthest from an arbitrary one, each
 * next the node farthest from all chosen so far. Differences of landmark distances bound a
 * drive time from below (triangle inequality), far tighter than a straight line.
 */
export const pickLandmarks = (graph: Graph<undefined, Piece>, net: RoadNetwork, component: Int32Array, mainComponent: number, k: number): Array<Float64Array> => {
  const main: Array<number> = []
  for (let v = 0; v < net.nodeCount; v++) if (component[v] === mainComponent) main.push(v)
  if (main.length === 0) return []
  const out: Array<Float64Array> = []
  const nearest = new Float64Array(net.nodeCount).fill(Infinity)
  let next = main[0]
  for (let i = 0; i <= k; i++) {
    const d = twoWayDistances(graph, net, next)
    // the first run only finds a far starting point
    if (i > 0) out.push(d)
    let best = -1
    for (const v of main) {
      nearest[v] = i === 0 ? d[v] : Math.min(nearest[v], d[v])
      if (Number.isFinite(nearest[v]) && (best < 0 || nearest[v] > nearest[best])) best = v
    }
    if (i === 0) nearest.fill(Infinity)
    next = best
  }
  return out
}
