/**
 * A route line indexed for "how far from the route is this point, and how far along it": route
 * segments are bucketed in a grid of cells about `CELL_DEG` wide (each segment in every cell its
 * bounding box, grown by the search distance, touches), so a lookup reads a handful of segments
 * instead of the whole line. Distances within a segment use a local equirectangular projection,
 * accurate to well under a metre at the buffer distances routing uses (≤ 1 km).
 */
const CELL_DEG = 0.05
const M_PER_DEG = 111_320
/** Grid cells as one number (columns from -3,600 to 3,600, rows within ±1,800): no key text built per lookup. */
const ROWS = 4096
const cellKey = (x: number, y: number) => x * ROWS + y

export interface Placement {
  readonly distanceM: number
  readonly alongM: number
  /** index of the segment (coordinate i to i + 1) nearest the point */
  readonly segment: number
}

export class RouteLine {
  private readonly cells = new Map<number, Array<number>>()

  /** `alongM[i]`: metres from the start at coordinate i (the route's own, calibrated figures) */
  constructor(
    private readonly coords: ReadonlyArray<readonly [number, number]>,
    private readonly alongM: ReadonlyArray<number>,
    readonly maxM: number
  ) {
    const padLat = maxM / M_PER_DEG
    for (let i = 0; i + 1 < coords.length; i++) {
      const [a, b] = [coords[i], coords[i + 1]]
      const padLng = padLat / Math.max(0.05, Math.cos((Math.max(Math.abs(a[1]), Math.abs(b[1])) * Math.PI) / 180))
      const x0 = Math.floor((Math.min(a[0], b[0]) - padLng) / CELL_DEG)
      const x1 = Math.floor((Math.max(a[0], b[0]) + padLng) / CELL_DEG)
      const y0 = Math.floor((Math.min(a[1], b[1]) - padLat) / CELL_DEG)
      const y1 = Math.floor((Math.max(a[1], b[1]) + padLat) / CELL_DEG)
      for (let x = x0; x <= x1; x++) {
        for (let y = y0; y <= y1; y++) {
          const key = cellKey(x, y)
          const list = this.cells.get(key)
          if (list) list.push(i)
          else this.cells.set(key, [i])
        }
      }
    }
  }

  /** the nearest point of the route to (lng, lat) within maxM, or undefined */
  place(lng: number, lat: number): Placement | undefined {
    const candidates = this.cells.get(cellKey(Math.floor(lng / CELL_DEG), Math.floor(lat / CELL_DEG)))
    if (!candidates) return undefined
    const kx = M_PER_DEG * Math.cos((lat * Math.PI) / 180)
    let best: Placement | undefined
    for (const i of candidates) {
      const [a, b] = [this.coords[i], this.coords[i + 1]]
      const ax = (a[0] - lng) * kx
      const ay = (a[1] - lat) * M_PER_DEG
      const dx = (b[0] - a[0]) * kx
      const dy = (b[1] - a[1]) * M_PER_DEG
      const len2 = dx * dx + dy * dy
      const t = len2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2)) : 0
      const px = ax + t * dx
      const py = ay + t * dy
      const d = Math.sqrt(px * px + py * py)
      if (d <= this.maxM && (!best || d < best.distanceM)) {
        best = { distanceM: d, alongM: this.alongM[i] + t * (this.alongM[i + 1] - this.alongM[i]), segment: i }
      }
    }
    return best
  }

  /**
   * The nearest point of a geometry (its point, or each of its vertices and, for lines, where
   * its segments cross the route) within maxM.
   */
  placeGeometry(g: { type: string; coordinates: unknown } | null, lng: number, lat: number): Placement | undefined {
    if (!g || g.type === "Point") return this.place(lng, lat)
    const parts: Array<Array<[number, number]>> =
      g.type === "LineString" || g.type === "MultiPoint"
        ? [g.coordinates as Array<[number, number]>]
        : g.type === "MultiLineString" || g.type === "Polygon"
          ? (g.coordinates as Array<Array<[number, number]>>)
          : g.type === "MultiPolygon"
            ? (g.coordinates as Array<Array<Array<[number, number]>>>).flat()
            : []
    let best: Placement | undefined
    const consider = (p: Placement | undefined) => {
      if (p && (!best || p.distanceM < best.distanceM)) best = p
    }
    for (const part of parts) {
      for (let k = 0; k < part.length; k++) {
        consider(this.place(part[k][0], part[k][1]))
        // a long segment of the geometry may pass the route between its vertices: sample it
        if (k + 1 < part.length) {
          const [p, q] = [part[k], part[k + 1]]
          const steps = Math.min(
            200,
            Math.ceil(
              Math.hypot((q[0] - p[0]) * M_PER_DEG * Math.cos((p[1] * Math.PI) / 180), (q[1] - p[1]) * M_PER_DEG) /
                Math.max(10, this.maxM)
            )
          )
          for (let s = 1; s < steps; s++)
            consider(this.place(p[0] + ((q[0] - p[0]) * s) / steps, p[1] + ((q[1] - p[1]) * s) / steps))
        }
      }
    }
    return best ?? this.place(lng, lat)
  }
}
