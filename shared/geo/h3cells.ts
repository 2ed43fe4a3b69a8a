import * as turf from "@turf/turf"
import { getHexagonAreaAvg, latLngToCell, POLYGON_TO_CELLS_FLAGS, polygonToCellsExperimental } from "h3-js"

/** Resolutions stored per row (columns h3_r3, h3_r5, h3_r7). */
export const RESOLUTIONS = [7, 5, 3] as const
export type Resolution = (typeof RESOLUTIONS)[number]

/** Cell ids as decimal strings: they fill int8 and would lose bits as JS numbers. */
const toDecimal = (h: string) => BigInt("0x" + h).toString()

export const cellsOf = (lat: number, lng: number) => ({
  r3: toDecimal(latLngToCell(lat, lng, 3)),
  r5: toDecimal(latLngToCell(lat, lng, 5)),
  r7: toDecimal(latLngToCell(lat, lng, 7))
})

/** The finest stored resolution whose cover stays under this many cells. */
const MAX_CELLS = 300

const pickResolution = (areaKm2: number): Resolution => {
  for (const res of RESOLUTIONS) if (areaKm2 / getHexagonAreaAvg(res, "km2") <= MAX_CELLS / 2) return res
  return 3
}

export interface CellCover {
  readonly res: Resolution
  readonly cells: ReadonlyArray<string>
}

const cover = (ring: Array<Array<number>>, areaKm2: number): CellCover => {
  const res = pickResolution(areaKm2)
  const cells = polygonToCellsExperimental([ring], res, POLYGON_TO_CELLS_FLAGS.containmentOverlapping, true)
  return { res, cells: cells.map(toDecimal) }
}

/**
 * Cells that together contain every point within `radiusKm` (a prefilter: the exact
 * great-circle test follows in SQL). The polygon circumscribes the circle.
 */
export const coverCircle = (lat: number, lng: number, radiusKm: number): CellCover => {
  const steps = 64
  const outer = radiusKm / Math.cos(Math.PI / steps) + 0.01
  const circle = turf.circle([lng, lat], outer, { steps, units: "kilometers" })
  return cover(circle.geometry.coordinates[0], Math.PI * outer * outer)
}

export const coverBbox = (minLng: number, minLat: number, maxLng: number, maxLat: number): CellCover => {
  const ring = [[minLng, minLat], [maxLng, minLat], [maxLng, maxLat], [minLng, maxLat], [minLng, minLat]]
  return cover(ring, turf.area(turf.polygon([ring])) / 1e6)
}
