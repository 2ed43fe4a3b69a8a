import type { RoadNetwork } from "../../network/NetworkFile.js"

/**
 * A network's arcs in compressed sparse rows: the arcs leaving node v are start[v] … start[v + 1] − 1,
 * each the edge it drives (`edge`), the node it reaches (`to`) and whether it drives the edge
 * along its shape (`forward`) or backwards. Typed arrays keep a search free of per-node objects.
 */
export interface Arcs {
  readonly start: Uint32Array
  readonly edge: Uint32Array
  readonly to: Uint32Array
  readonly forward: Uint8Array
}

/** Arcs out of every node: each edge forward, and backward too unless oneway (or `twoWay`). */
export const buildArcs = (net: RoadNetwork, twoWay: boolean): Arcs => {
  const both = (e: number) => twoWay || !net.props[net.edgeProp[e]].oneway
  const start = new Uint32Array(net.nodeCount + 1)
  for (let e = 0; e < net.edgeCount; e++) {
    start[net.edgeFrom[e] + 1]++
    if (both(e)) start[net.edgeTo[e] + 1]++
  }
  for (let v = 0; v < net.nodeCount; v++) start[v + 1] += start[v]
  const count = start[net.nodeCount]
  const edge = new Uint32Array(count)
  const to = new Uint32Array(count)
  const forward = new Uint8Array(count)
  const next = start.slice(0, net.nodeCount)
  for (let e = 0; e < net.edgeCount; e++) {
    let k = next[net.edgeFrom[e]]++
    edge[k] = e
    to[k] = net.edgeTo[e]
    forward[k] = 1
    if (both(e)) {
      k = next[net.edgeTo[e]]++
      edge[k] = e
      to[k] = net.edgeFrom[e]
      forward[k] = 0
    }
  }
  return { start, edge, to, forward }
}
