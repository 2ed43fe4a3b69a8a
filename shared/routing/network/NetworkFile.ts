import { gunzipSync, gzipSync } from "node:zlib"
import { haversineM } from "../../geo/distance.js"
import type { RoadProps } from "./RoadLine.js"

export const NETWORK_FORMAT = "road-network/1"

export interface NetworkMeta {
  /** what the network was built from, for /data-sources and the docs */
  readonly source: string
  /** credits the source requires, shown with every route */
  readonly credit: ReadonlyArray<string>
  /**
   * Lengths measured on the lines are multiplied by this: straight lines between sparse
   * waypoints cut curves, so they come out short (docs/routing.md says how it was measured).
   */
  readonly length_factor: number
  /**
   * Seconds a truck loses at an at-grade junction (a node where three or more road pieces meet,
   * on any road but a motorway): signals, stop signs and turning traffic in towns. Half is
   * charged on each piece at its junction ends. Absent: none (an OSM import, whose every
   * crossing street is a junction, and test networks).
   */
  readonly junction_delay_s?: number
}

/**
 * The compact, committed form of a network: properties interned once, coordinates in 1e-6
 * degree integers delta-coded (nodes one after another; an edge's inner shape points from its
 * start node on), gzipped JSON.
 */
export interface NetworkFile {
  readonly format: typeof NETWORK_FORMAT
  readonly meta: NetworkMeta
  readonly props: ReadonlyArray<RoadProps>
  /** [dlat, dlng] pairs */
  readonly nodes: Array<number>
  readonly edges: {
    from: Array<number>
    to: Array<number>
    prop: Array<number>
    npts: Array<number>
    pts: Array<number>
  }
}

export const encodeNetwork = (n: NetworkFile): Buffer => gzipSync(JSON.stringify(n), { level: 9 })

const Q = 1e6

/** A loaded network: typed arrays, edge lengths in metres and drive times in seconds. */
export class RoadNetwork {
  readonly nodeLat: Float64Array
  readonly nodeLng: Float64Array
  readonly edgeFrom: Uint32Array
  readonly edgeTo: Uint32Array
  readonly edgeProp: Uint32Array
  readonly edgeLengthM: Float64Array
  readonly edgeSeconds: Float64Array
  /** shape points of edge e: shapeStart[e] … shapeStart[e + 1] − 1 in shapeLat/shapeLng, ends included */
  readonly shapeStart: Uint32Array
  readonly shapeLat: Float64Array
  readonly shapeLng: Float64Array
  readonly props: ReadonlyArray<RoadProps>
  readonly meta: NetworkMeta

  constructor(file: NetworkFile) {
    if (file.format !== NETWORK_FORMAT)
      throw new Error(`network file format ${String(file.format)}; expected ${NETWORK_FORMAT}`)
    this.meta = file.meta
    this.props = file.props
    const n = file.nodes.length / 2
    this.nodeLat = new Float64Array(n)
    this.nodeLng = new Float64Array(n)
    let [lat, lng] = [0, 0]
    for (let i = 0; i < n; i++) {
      lat += file.nodes[2 * i]
      lng += file.nodes[2 * i + 1]
      this.nodeLat[i] = lat / Q
      this.nodeLng[i] = lng / Q
    }
    const e = file.edges.from.length
    this.edgeFrom = Uint32Array.from(file.edges.from)
    this.edgeTo = Uint32Array.from(file.edges.to)
    this.edgeProp = Uint32Array.from(file.edges.prop)
    this.edgeLengthM = new Float64Array(e)
    this.edgeSeconds = new Float64Array(e)
    this.shapeStart = new Uint32Array(e + 1)
    const total = file.edges.npts.reduce((s, k) => s + k + 2, 0)
    this.shapeLat = new Float64Array(total)
    this.shapeLng = new Float64Array(total)
    // junctions: nodes three or more road pieces meet at
    const degree = new Uint16Array(n)
    for (let i = 0; i < e; i++) {
      degree[this.edgeFrom[i]]++
      degree[this.edgeTo[i]]++
    }
    const halfDelay = (file.meta.junction_delay_s ?? 0) / 2
    let at = 0
    let p = 0
    for (let i = 0; i < e; i++) {
      this.shapeStart[i] = at
      const from = this.edgeFrom[i]
      let [qa, qn] = [Math.round(this.nodeLat[from] * Q), Math.round(this.nodeLng[from] * Q)]
      this.shapeLat[at] = this.nodeLat[from]
      this.shapeLng[at] = this.nodeLng[from]
      at++
      for (let k = 0; k < file.edges.npts[i]; k++) {
        qa += file.edges.pts[p++]
        qn += file.edges.pts[p++]
        this.shapeLat[at] = qa / Q
        this.shapeLng[at] = qn / Q
        at++
      }
      this.shapeLat[at] = this.nodeLat[this.edgeTo[i]]
      this.shapeLng[at] = this.nodeLng[this.edgeTo[i]]
      at++
      let m = 0
      for (let j = this.shapeStart[i] + 1; j < at; j++)
        m += haversineM(this.shapeLat[j - 1], this.shapeLng[j - 1], this.shapeLat[j], this.shapeLng[j])
      this.edgeLengthM[i] = m * file.meta.length_factor
      const props = file.props[this.edgeProp[i]]
      this.edgeSeconds[i] = this.edgeLengthM[i] / (props.speed_kph / 3.6)
      if (halfDelay > 0 && props.class !== "motorway" && props.class !== "ferry") {
        this.edgeSeconds[i] += (degree[from] >= 3 ? halfDelay : 0) + (degree[this.edgeTo[i]] >= 3 ? halfDelay : 0)
      }
    }
    this.shapeStart[e] = at
  }

  get nodeCount() {
    return this.nodeLat.length
  }
  get edgeCount() {
    return this.edgeFrom.length
  }

  /** `[lng, lat]` points of edge e in its stored direction */
  shape(e: number): Array<[number, number]> {
    const out: Array<[number, number]> = []
    for (let j = this.shapeStart[e]; j < this.shapeStart[e + 1]; j++) out.push([this.shapeLng[j], this.shapeLat[j]])
    return out
  }

  static decode(buf: Buffer): RoadNetwork {
    return new RoadNetwork(JSON.parse(gunzipSync(buf).toString("utf8")) as NetworkFile)
  }
}
