import { haversineM } from "./distance.js"

type Ring = ReadonlyArray<readonly [number, number]>

interface Region {
  readonly code: string
  /** outer rings and holes alike: even-odd counting handles both */
  readonly rings: ReadonlyArray<Ring>
  readonly bbox: readonly [number, number, number, number]
}

export interface MileageRow {
  readonly jurisdiction: string
  readonly distance_m: number
  readonly distance_mi: number
}

const GRID = 0.5 // degrees: boundary edges are bucketed by the grid cells their bounding boxes touch
const M_PER_MI = 1609.344
const EPS = 1e-12

const cellKey = (x: number, y: number) => `${x}:${y}`

/**
 * State and province polygons, able to split a route line into per-jurisdiction lengths: where a
 * route segment crosses a boundary edge (planar intersection in degrees, exact for the straight
 * lines both are drawn with), the segment is cut, and each piece is placed by its midpoint.
 */
export class StateBoundaries {
  private readonly regions: ReadonlyArray<Region>
  private readonly edges = new Map<string, Array<readonly [number, number, number, number]>>()

  constructor(
    collection: {
      features: ReadonlyArray<{ properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } }>
    },
    codeOf: (p: Record<string, unknown>) => string
  ) {
    this.regions = collection.features.map((f) => {
      const polys =
        f.geometry.type === "MultiPolygon"
          ? (f.geometry.coordinates as Array<Array<Ring>>)
          : [f.geometry.coordinates as Array<Ring>]
      const rings = polys.flat()
      const xs = rings.flatMap((r) => r.map((p) => p[0]))
      const ys = rings.flatMap((r) => r.map((p) => p[1]))
      return {
        code: codeOf(f.properties),
        rings,
        bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as const
      }
    })
    for (const region of this.regions) {
      for (const ring of region.rings) {
        for (let i = 0; i + 1 < ring.length; i++) {
          const e = [ring[i][0], ring[i][1], ring[i + 1][0], ring[i + 1][1]] as const
          for (const key of this.cells(e[0], e[1], e[2], e[3])) {
            const list = this.edges.get(key)
            if (list) list.push(e)
            else this.edges.set(key, [e])
          }
        }
      }
    }
  }

  private cells(x1: number, y1: number, x2: number, y2: number): Array<string> {
    const out: Array<string> = []
    for (let x = Math.floor(Math.min(x1, x2) / GRID); x <= Math.floor(Math.max(x1, x2) / GRID); x++) {
      for (let y = Math.floor(Math.min(y1, y2) / GRID); y <= Math.floor(Math.max(y1, y2) / GRID); y++)
        out.push(cellKey(x, y))
    }
    return out
  }

  /** the jurisdiction a point lies in, or undefined (sea, lakes, outside the data) */
  locate(lng: number, lat: number): string | undefined {
    for (const r of this.regions) {
      if (lng < r.bbox[0] || lng > r.bbox[2] || lat < r.bbox[1] || lat > r.bbox[3]) continue
      let inside = false
      for (const ring of r.rings) {
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const [xi, yi] = ring[i]
          const [xj, yj] = ring[j]
          if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside
        }
      }
      if (inside) return r.code
    }
    return undefined
  }

  /**
   * Parameters t in (0, 1) where segment p → q crosses a boundary edge, and whether it starts or
   * ends on a boundary (a route vertex exactly on a border: the side must be looked up again).
   */
  private crossings(p: readonly [number, number], q: readonly [number, number]) {
    const ts = new Set<number>()
    let touches = false
    const dx = q[0] - p[0]
    const dy = q[1] - p[1]
    for (const key of this.cells(p[0], p[1], q[0], q[1])) {
      for (const [ax, ay, bx, by] of this.edges.get(key) ?? []) {
        const ex = bx - ax
        const ey = by - ay
        const den = dx * ey - dy * ex
        if (den === 0) continue
        const t = ((ax - p[0]) * ey - (ay - p[1]) * ex) / den
        const u = ((ax - p[0]) * dy - (ay - p[1]) * dx) / den
        if (u < 0 || u > 1) continue
        if (t > EPS && t < 1 - EPS) ts.add(t)
        else if (t >= -EPS && t <= 1 + EPS) touches = true
      }
    }
    return { ts: [...ts].sort((a, b) => a - b), touches }
  }

  /**
   * Per-jurisdiction lengths of a line, longest first. Raw great-circle lengths are scaled so the
   * parts sum to `totalM` (the route's own length, which may carry the network's calibration).
   * Pieces outside every polygon (a bridge over a lake, a ferry) count for the jurisdiction
   * before them, or after them at the start.
   */
  split(coordinates: ReadonlyArray<readonly [number, number]>, totalM: number): Array<MileageRow> {
    const pieces: Array<{ code: string | undefined; m: number }> = []
    let current: string | undefined
    let known = false
    for (let i = 0; i + 1 < coordinates.length; i++) {
      const [p, q] = [coordinates[i], coordinates[i + 1]]
      const c = this.crossings(p, q)
      if (c.touches) known = false
      const ts = [0, ...c.ts, 1]
      for (let k = 0; k + 1 < ts.length; k++) {
        const at = (t: number) => [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t] as const
        const [a, b] = [at(ts[k]), at(ts[k + 1])]
        // a segment without crossings stays where the line already is
        if (!known || k > 0) {
          const mid = at((ts[k] + ts[k + 1]) / 2)
          current = this.locate(mid[0], mid[1])
          known = true
        }
        pieces.push({ code: current, m: haversineM(a[1], a[0], b[1], b[0]) })
      }
      known = current !== undefined && !c.touches
    }
    const firstKnown = pieces.find((x) => x.code !== undefined)?.code
    const totals = new Map<string, number>()
    let last = firstKnown
    let raw = 0
    for (const piece of pieces) {
      const code = piece.code ?? last
      last = code
      raw += piece.m
      if (code !== undefined) totals.set(code, (totals.get(code) ?? 0) + piece.m)
    }
    // a route of no length (origin = destination) lies wholly where it starts
    if (raw === 0 && firstKnown !== undefined) totals.set(firstKnown, 1)
    const scale = totalM / (raw > 0 ? raw : 1)
    return [...totals.entries()]
      .map(([jurisdiction, m]) => ({
        jurisdiction,
        distance_m: Math.round(m * scale * 10) / 10,
        distance_mi: Math.round((m * scale * 100) / M_PER_MI) / 100
      }))
      .sort((a, b) => b.distance_m - a.distance_m || a.jurisdiction.localeCompare(b.jurisdiction))
  }
}
