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

/** A res-7 cell's centre and decimal id (the column's form). */
interface CellFact { readonly hex: string; readonly lng: number; readonly lat: number; readonly decimal: string; ring?: ReadonlyArray<CellFact> }
/**
 * Cells met so far with their rings, kept per process: neighbouring road pieces and routes share
 * most of their cells, and h3's calls (centre, ring, each id as text) are most of a cover's cost.
 * About 250 bytes each, so at most about 40 MB: cleared at MAX_CELLS.
 */
const known = new Map<string, CellFact>()
const MAX_CELLS = 150_000
const cellOf = (h: string): CellFact => {
  let f = known.get(h)
  if (f === undefined) {
    const [lat, lng] = cellToLatLng(h)
    f = { hex: h, lng, lat, decimal: BigInt("0x" + h).toString() }
    if (known.size >= MAX_CELLS) known.clear()
    known.set(h, f)
  }
  return f
}
/** A cell's six neighbours (and itself), asked of h3 once. */
const ringOf = (f: CellFact) => (f.ring ??= gridDisk(f.hex, 1).map(cellOf))

/**
 * The res-7 cells holding every point within `bufferM` of a route line (its coordinates in
 * [lng, lat]): the cells whose centre lies within `bufferM` plus a cell's radius of the line,
 * a band about two cells wide, so the index probes that read hazards along a long route stay
 * few. Found by flooding from the cell of the line's first point through neighbours that pass
 * that test. Sound: every cell holding a point within `bufferM` passes it, and those cells
 * form an edge-connected patch (they touch a connected region, and three cells meet at every
 * H3 vertex), so the flood reaches them all. Each cell met is tested once, and its ring is
 * asked for only when it passes (sampling the line and asking for a disk around every sample,
 * as before, converted tens of cell ids per sample and cost about 0.3 ms a network edge).
 */
export const routeCover = (coords: ReadonlyArray<readonly [number, number]>, alongM: ReadonlyArray<number>, bufferM: number): CellCover => {
  if (coords.length === 0) return { res: RES, cells: [] }
  const line = new RouteLine(coords, alongM, bufferM + CELL_RADIUS_M)
  const seed = latLngToCell(coords[0][1], coords[0][0], RES)
  const first = cellOf(seed)
  const seen = new Set<CellFact>([first])
  const queue = [first]
  const cells: Array<string> = []
  for (let i = 0; i < queue.length; i++) {
    const cell = queue[i]
    if (line.place(cell.lng, cell.lat) === undefined) continue
    cells.push(cell.decimal)
    for (const next of ringOf(cell)) {
      if (seen.has(next)) continue
      seen.add(next)
      queue.push(next)
    }
  }
  return { res: RES, cells }
}
