import { routeCover } from "../../../geo/routeCover.js"
import { makeInterner } from "../../../cache/intern.js"
import { haversineM } from "../../../geo/distance.js"
import type { RoadNetwork } from "../../network/NetworkFile.js"

/**
 * Buffers whose edge covers are kept: a request picks its own hazard buffer (10–1,000 m), and
 * each kept buffer can grow to a cover of the whole network, so only the first few seen are kept
 * (the default 100 m and the places to stop's 1.5 km are nearly always among them).
 */
const KEPT_BUFFERS = 4

/**
 * The res-7 cells within a buffer of each network edge, worked out once per process: a route's
 * band is the union of its edges' bands, which costs a set union instead of the H3 work along
 * every route (bench:routing measured that work at a fifth of a whole request). Whole edges are
 * covered, so a route that starts or ends part way along one reads a few cells more, never fewer.
 */
export class EdgeCovers {
  private readonly byBuffer = new Map<number, Map<number, ReadonlyArray<string>>>()
  /** one string per cell, shared by the edges around it (the bound is far above the network's cells: never reached) */
  private readonly interned = makeInterner(10_000_000)

  constructor(private readonly net: RoadNetwork) {}

  /**
   * The cells within `bufferM` of the edges `keys` names (the built-in engine's segment keys), or undefined when this
   * buffer is not kept.
   */
  union(keys: ReadonlyArray<string>, bufferM: number): ReadonlyArray<string> | undefined {
    let edges = this.byBuffer.get(bufferM)
    if (edges === undefined) {
      if (this.byBuffer.size >= KEPT_BUFFERS) return undefined
      this.byBuffer.set(bufferM, (edges = new Map()))
    }
    const out = new Set<string>()
    let last = ""
    for (const key of keys) {
      if (key === last) continue
      last = key
      const e = Number(key)
      if (!Number.isInteger(e) || e < 0 || e >= this.net.edgeCount) return undefined
      let cells = edges.get(e)
      if (cells === undefined) edges.set(e, (cells = this.edgeCover(e, bufferM)))
      for (const c of cells) out.add(c)
    }
    return [...out]
  }

  private edgeCover(e: number, bufferM: number): ReadonlyArray<string> {
    const { shapeStart, shapeLat, shapeLng } = this.net
    const coords: Array<readonly [number, number]> = []
    const along: Array<number> = []
    for (let j = shapeStart[e]; j < shapeStart[e + 1]; j++) {
      const m =
        coords.length === 0
          ? 0
          : along[along.length - 1] + haversineM(shapeLat[j - 1], shapeLng[j - 1], shapeLat[j], shapeLng[j])
      coords.push([shapeLng[j], shapeLat[j]])
      along.push(m)
    }
    return routeCover(coords, along, bufferM).cells.map(this.interned)
  }
}
