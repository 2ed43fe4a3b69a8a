import { cellToLatLng, getHexagonEdgeLengthAvg, gridDisk, latLngToCell } from "h3-js"
import type { CellCover } from "./h3cells.js"
import { RouteLine } from "./routeLine.js"

/** Routes are covered at the finest stored resolution: their band is at most 2 km wide. */
const RES = 7
const AVG_EDGE_M = getHexagonEdgeLengthAvg(RES, "m")
/**
 * A bound on the distance from a res-7 cell's centre to any point of it: the average edge (a
 * regular hexagon's circumradius) with room for H3's size spread; across the US and Canada the
 * farthest point lies 1.10 edges out (routeCover.test.ts measures it).
 */
const CELL_RADIUS_M = AVG_EDGE_M * 1.2
const M_PER_DEG = 111_320

/**
 * The res-7 cells holding every point within `bufferM` of a route line (its coordinates in
 * [lng, lat]). Points sampled along the line pick candidate cells (a grid disk wide enough
 * to reach any such point), then only cells whose centre lies within `bufferM` plus a cell's
 * radius of the line are kept: a band about two cells wide, not five, so the index probes
 * that read hazards along a long route stay few. `centers` keeps cell centres between calls
 * (h3's cellToLatLng is most of the cost): routes of one request share most of their cells.
 */
export const routeCover = (coords: ReadonlyArray<readonly [number, number]>, alongM: ReadonlyArray<number>, bufferM: number, centers = new Map<string, readonly [number, number]>()): CellCover => {
  const reachM = bufferM + CELL_RADIUS_M
  const stepM = CELL_RADIUS_M / 2
  // a cell holding a point within bufferM has its centre within reachM of the line, so within
  // reachM + stepM / 2 of a sample: rings of centres 1.5 radii apart reach it within k
  const k = Math.ceil((reachM + CELL_RADIUS_M + stepM / 2) / (1.5 * AVG_EDGE_M))
  const line = new RouteLine(coords, alongM, reachM)
  const seen = new Set<string>()
  const cells: Array<string> = []
  let last = ""
  const visit = (lng: number, lat: number) => {
    const c = latLngToCell(lat, lng, RES)
    if (c === last) return
    last = c
    for (const h of gridDisk(c, k)) {
      if (seen.has(h)) continue
      seen.add(h)
      let center = centers.get(h)
      if (center === undefined) {
        const [clat, clng] = cellToLatLng(h)
        center = [clng, clat]
        centers.set(h, center)
      }
      if (line.place(center[0], center[1]) !== undefined) cells.push(BigInt("0x" + h).toString())
    }
  }
  if (coords.length > 0) visit(coords[0][0], coords[0][1])
  for (let i = 0; i + 1 < coords.length; i++) {
    const [a, b] = [coords[i], coords[i + 1]]
    const kx = Math.cos((a[1] * Math.PI) / 180)
    const m = Math.hypot((b[0] - a[0]) * M_PER_DEG * kx, (b[1] - a[1]) * M_PER_DEG)
    const n = Math.max(1, Math.ceil(m / stepM))
    for (let s = 1; s <= n; s++) visit(a[0] + ((b[0] - a[0]) * s) / n, a[1] + ((b[1] - a[1]) * s) / n)
  }
  return { res: RES, cells }
}
