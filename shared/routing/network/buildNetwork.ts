import type { RoadLine, RoadProps } from "./RoadLine.js"
import { ROAD_CLASSES } from "./RoadLine.js"
import { NETWORK_FORMAT, type NetworkFile, type NetworkMeta } from "./NetworkFile.js"

/** Coordinates are kept to 1e-6 degree (about 0.1 m): lines meet where they share a vertex. */
const Q = 1e6

interface Segment {
  readonly a: number
  readonly b: number
  props: RoadProps
  /** drivable a→b and b→a */
  fwd: boolean
  bwd: boolean
}

const rank = (c: RoadProps["class"]) => ROAD_CLASSES.indexOf(c)

/** Numbers keys 0, 1, 2 … in first-seen order; `onNew` runs once per new key. */
const numbering = <K>(onNew: (key: K) => void) => {
  const index = new Map<K, number>()
  return (key: K) => {
    let i = index.get(key)
    if (i === undefined) {
      i = index.size
      index.set(key, i)
      onNew(key)
    }
    return i
  }
}
const minOf = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : Math.min(x, y))

/**
 * Where routes run together the sources repeat the same segment (I-80 and the Ohio Turnpike):
 * one segment carries both refs, the better class, and the stricter of every restriction.
 */
/** a field written only when it holds something, so networks without the newer limits keep their bytes */
const optional = <K extends string, V>(key: K, value: V | null): { [k in K]?: V } =>
  (value === null ? {} : { [key]: value }) as { [k in K]?: V }
const CATEGORY_ORDER = ["B", "C", "D", "E"] as const
const strictestCategory = (a: RoadProps["tunnel_category"] | null, b: RoadProps["tunnel_category"] | null) =>
  a == null ? (b ?? null) : b == null ? a : CATEGORY_ORDER.indexOf(a) >= CATEGORY_ORDER.indexOf(b) ? a : b

/** both lines' sources, field by field ("a; b" where both name one) */
const mergeSources = (a: RoadProps["restriction_sources"], b: RoadProps["restriction_sources"]) => {
  if (!a) return b ?? null
  if (!b) return a
  const out: Record<string, string> = { ...a }
  for (const [k, v] of Object.entries(b)) out[k] = out[k] && out[k] !== v ? `${out[k]}; ${v}` : v!
  return out
}

const mergeProps = (p: RoadProps, q: RoadProps): RoadProps => ({
  ref: [...new Set([...(p.ref?.split(";") ?? []), ...(q.ref?.split(";") ?? [])])].join(";") || null,
  name: p.name ?? q.name,
  class: rank(p.class) <= rank(q.class) ? p.class : q.class,
  speed_kph: Math.max(p.speed_kph, q.speed_kph),
  oneway: p.oneway && q.oneway,
  toll: p.toll ?? q.toll,
  tunnel: p.tunnel || q.tunnel,
  ferry: p.ferry && q.ferry,
  max_height_m: minOf(p.max_height_m, q.max_height_m),
  max_weight_t: minOf(p.max_weight_t, q.max_weight_t),
  ...optional("max_length_m", minOf(p.max_length_m ?? null, q.max_length_m ?? null)),
  ...optional("max_axles", minOf(p.max_axles ?? null, q.max_axles ?? null)),
  hazmat_forbidden: p.hazmat_forbidden || q.hazmat_forbidden,
  ...optional("tunnel_category", strictestCategory(p.tunnel_category ?? null, q.tunnel_category ?? null)),
  ...optional("restriction_sources", mergeSources(p.restriction_sources, q.restriction_sources)),
  truck_forbidden: p.truck_forbidden && q.truck_forbidden,
  region: p.region ?? q.region
})

/**
 * Nodes the lines where they share a vertex and contracts runs of vertices that join exactly two
 * segments of the same properties into one edge with a shape. The result is the compact network
 * file the built-in engine loads.
 */
export const buildNetwork = (lines: Iterable<RoadLine>, meta: NetworkMeta): NetworkFile => {
  const vLat: Array<number> = []
  const vLng: Array<number> = []
  const vertexOf = numbering<string>((key) => {
    const [qa, qn] = key.split(":").map(Number)
    vLat.push(qa)
    vLng.push(qn)
  })
  const vertex = (lng: number, lat: number) => vertexOf(`${Math.round(lat * Q)}:${Math.round(lng * Q)}`)
  const segments = new Map<string, Segment>()
  for (const line of lines) {
    const ids = line.coordinates.map(([lng, lat]) => vertex(lng, lat))
    for (let k = 0; k + 1 < ids.length; k++) {
      const [u, v] = [ids[k], ids[k + 1]]
      if (u === v) continue
      const [a, b] = u < v ? [u, v] : [v, u]
      const forward = u === a
      const key = `${a}:${b}`
      const s = segments.get(key)
      const fwd = !line.props.oneway || forward
      const bwd = !line.props.oneway || !forward
      if (!s) segments.set(key, { a, b, props: line.props, fwd, bwd })
      else {
        s.props = mergeProps(s.props, line.props)
        s.fwd ||= fwd
        s.bwd ||= bwd
      }
    }
  }
  // intern properties; a segment drivable both ways is never oneway whatever its lines said
  const props: Array<RoadProps> = []
  const propOf = numbering<string>((key) => props.push(JSON.parse(key) as RoadProps))
  const segs = [...segments.values()]
  const segProp = segs.map((s) => propOf(JSON.stringify({ ...s.props, oneway: !(s.fwd && s.bwd) })))
  const incident: Array<Array<number>> = Array.from({ length: vLat.length }, () => [])
  segs.forEach((s, i) => {
    incident[s.a].push(i)
    incident[s.b].push(i)
  })
  // direction of travel along a segment from vertex v: 1 allowed, 0 not
  const allowedFrom = (s: number, v: number) => (segs[s].a === v ? segs[s].fwd : segs[s].bwd)
  const through = (v: number) => {
    const inc = incident[v]
    if (inc.length !== 2 || segProp[inc[0]] !== segProp[inc[1]]) return false
    const [s, t] = inc
    // a oneway chain must keep its direction through v
    return props[segProp[s]].oneway ? allowedFrom(s, v) !== allowedFrom(t, v) : true
  }
  const isNode = vLat.map((_, v) => incident[v].length > 0 && !through(v))
  const used = new Uint8Array(segs.length)
  const nodes: Array<number> = []
  const node = numbering<number>((v) => nodes.push(v))
  const edges: NetworkFile["edges"] = { from: [], to: [], prop: [], npts: [], pts: [] }
  const walk = (start: number, firstSeg: number) => {
    const chain = [start]
    let v = start
    let s = firstSeg
    const prop = segProp[s]
    for (;;) {
      used[s] = 1
      v = segs[s].a === v ? segs[s].b : segs[s].a
      chain.push(v)
      if (isNode[v] || v === start) break
      s = incident[v][0] === s ? incident[v][1] : incident[v][0]
    }
    // store a oneway edge in its drivable direction
    if (props[prop].oneway && !allowedFrom(firstSeg, start)) chain.reverse()
    let [pLat, pLng] = [vLat[chain[0]], vLng[chain[0]]]
    edges.from.push(node(chain[0]))
    edges.to.push(node(chain[chain.length - 1]))
    edges.prop.push(prop)
    edges.npts.push(chain.length - 2)
    for (const w of chain.slice(1, -1)) {
      edges.pts.push(vLat[w] - pLat, vLng[w] - pLng)
      ;[pLat, pLng] = [vLat[w], vLng[w]]
    }
  }
  for (let v = 0; v < vLat.length; v++) {
    if (!isNode[v]) continue
    for (const s of incident[v]) if (!used[s]) walk(v, s)
  }
  // loops with no junction at all: start anywhere on them
  for (let s = 0; s < segs.length; s++) {
    if (used[s]) continue
    isNode[segs[s].a] = true
    walk(segs[s].a, s)
  }
  const flatNodes: Array<number> = []
  let [pLat, pLng] = [0, 0]
  for (const v of nodes) {
    flatNodes.push(vLat[v] - pLat, vLng[v] - pLng)
    ;[pLat, pLng] = [vLat[v], vLng[v]]
  }
  return { format: NETWORK_FORMAT, meta, props, nodes: flatNodes, edges }
}
