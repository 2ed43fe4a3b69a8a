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

/**
 * Cells met so far, kept per process: neighbouring road pieces and routes share most of their
 * cells, and h3's calls (centre, ring, each id as text) are most of a cover's cost. Each cell has
 * a slot in flat arrays (its ids, centre, and ring as slots) rather than an object: as objects
 * (the centre's numbers boxed, the ring an array) they were 850,000 of an API worker's 6.6
 * million at bench:routing (docs/BENCHMARKS.md), and every object costs a full
 * collection's marking. About 200 bytes a cell; started over at MAX_CELLS, between covers only
 * (a cover in progress holds slots).
 */
const MAX_CELLS = 150_000
const RING = 7
const UNKNOWN = -1
const NONE = -2

const emptyTable = () => ({
  slotOf: new Map<string, number>(),
  hexes: [] as Array<string>,
  decimals: [] as Array<string>,
  lats: [] as Array<number>,
  lngs: [] as Array<number>,
  /** RING slots a cell, UNKNOWN until asked; a pentagon's missing seventh is NONE */
  rings: [] as Array<number>
})
let table = emptyTable()

const slotOfCell = (h: string): number => {
  let s = table.slotOf.get(h)
  if (s === undefined) {
    s = table.hexes.length
    const [lat, lng] = cellToLatLng(h)
    table.hexes.push(h)
    table.decimals.push(BigInt("0x" + h).toString())
    table.lats.push(lat)
    table.lngs.push(lng)
    for (let i = 0; i < RING; i++) table.rings.push(UNKNOWN)
    table.slotOf.set(h, s)
  }
  return s
}

/** Fills a cell's six neighbours (and itself) in the rings, asked of h3 once. */
const askRing = (s: number) => {
  if (table.rings[RING * s] !== UNKNOWN) return
  const disk = gridDisk(table.hexes[s], 1)
  for (let i = 0; i < RING; i++) table.rings[RING * s + i] = i < disk.length ? slotOfCell(disk[i]) : NONE
}

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
export const routeCover = (
  coords: ReadonlyArray<readonly [number, number]>,
  alongM: ReadonlyArray<number>,
  bufferM: number
): CellCover => {
  if (coords.length === 0) return { res: RES, cells: [] }
  const line = new RouteLine(coords, alongM, bufferM + CELL_RADIUS_M)
  if (table.hexes.length >= MAX_CELLS) table = emptyTable()
  const first = slotOfCell(latLngToCell(coords[0][1], coords[0][0], RES))
  const { lats, lngs, decimals, rings } = table
  const seen = new Set<number>([first])
  const queue = [first]
  const cells: Array<string> = []
  for (let i = 0; i < queue.length; i++) {
    const cell = queue[i]
    if (line.place(lngs[cell], lats[cell]) === undefined) continue
    cells.push(decimals[cell])
    askRing(cell)
    for (let k = RING * cell; k < RING * cell + RING; k++) {
      const next = rings[k]
      if (next === NONE || seen.has(next)) continue
      seen.add(next)
      queue.push(next)
    }
  }
  return { res: RES, cells }
}
