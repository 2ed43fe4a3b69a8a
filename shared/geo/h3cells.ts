import * as turf from "@turf/turf"
import { cellToParent, getHexagonAreaAvg, gridDisk, latLngToCell, POLYGON_TO_CELLS_FLAGS, polygonToCellsExperimental } from "h3-js"

/** Resolutions stored per row (columns h3_r3, h3_r5, h3_r7). */
export const RESOLUTIONS = [7, 5, 3] as const
export type Resolution = (typeof RESOLUTIONS)[number]

/** Cell ids as decimal strings: they fill int8 and would lose bits as JS numbers. */
const toDecimal = (h: string) => BigInt("0x" + h).toString()

/** The distinct res-5 parents of decimal cell ids at a finer resolution. */
export const parentsAt5 = (cells: Iterable<string>) => {
  const out = new Set<string>()
  for (const c of cells) out.add(toDecimal(cellToParent(BigInt(c).toString(16), 5)))
  return [...out]
}

const RES_BITS = 0xfn << 52n
/** the digits of resolutions 6–7 (res 5 parent) and 4–7 (res 3 parent) set to 7, "unused" */
const UNUSED_6_7 = 0x3fn << 24n
const UNUSED_4_7 = 0xfffn << 24n

/**
 * A point's cells at the stored resolutions. The coarser two are the res-7 cell's parents, made
 * by setting the index's resolution field and blanking the finer digits (the H3 bit layout),
 * which costs far less than asking h3-js twice more: the materializer does this for every row.
 */
export const cellsOf = (lat: number, lng: number) => {
  const r7 = BigInt("0x" + latLngToCell(lat, lng, 7))
  const base = r7 & ~RES_BITS
  return {
    r3: (base | (3n << 52n) | UNUSED_4_7).toString(),
    r5: (base | (5n << 52n) | UNUSED_6_7).toString(),
    r7: r7.toString()
  }
}

/** res-3 rings already worked out: there are about 41,000 res-3 cells on Earth, few of them with roads */
const rings = new Map<string, ReadonlyArray<string>>()

/** A res-3 cell (decimal) and its ring: everything within about 60 km, the reach of cross-source linking. */
export const r3Neighbourhood = (r3: string): ReadonlyArray<string> => {
  let ring = rings.get(r3)
  if (ring === undefined) {
    ring = gridDisk(BigInt(r3).toString(16), 1).map(toDecimal)
    if (rings.size < 50_000) rings.set(r3, ring)
  }
  return ring
}

/** The finest stored resolution whose cover stays under about half this many cells (measured best with the cell index: bench:api). */
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

/** Beyond this a circle's polygon is no longer a fair stand-in for it (and the cover no cheaper than the exact test). */
const MAX_COVER_RADIUS_KM = 2000

/** A circle that stays clear of the poles and the antimeridian, where a lng/lat polygon wraps wrongly. */
const coverable = (lat: number, lng: number, radiusKm: number) => {
  if (radiusKm > MAX_COVER_RADIUS_KM) return false
  const dLat = radiusKm / 111.32
  if (Math.abs(lat) + dLat >= 85) return false
  const dLng = dLat / Math.cos(((Math.abs(lat) + dLat) * Math.PI) / 180)
  return Math.abs(lng) + dLng < 180
}

/**
 * Cells that together contain every point within `radiusKm` (a prefilter: the exact great-circle
 * test follows in SQL; the polygon circumscribes the circle), or null when the circle is too large
 * or wraps a pole or the antimeridian, where callers rely on the exact test alone.
 */
export const coverCircle = (lat: number, lng: number, radiusKm: number): CellCover | null => {
  if (!coverable(lat, lng, radiusKm)) return null
  const steps = 64
  const outer = radiusKm / Math.cos(Math.PI / steps) + 0.01
  const circle = turf.circle([lng, lat], outer, { steps, units: "kilometers" })
  return cover(circle.geometry.coordinates[0], Math.PI * outer * outer)
}

export const coverBbox = (minLng: number, minLat: number, maxLng: number, maxLat: number): CellCover => {
  const ring = [[minLng, minLat], [maxLng, minLat], [maxLng, maxLat], [minLng, maxLat], [minLng, minLat]]
  return cover(ring, turf.area(turf.polygon([ring])) / 1e6)
}

/** Spacing of the points sampled along a line: well under a resolution-7 cell's edge (~1.2 km). */
const SAMPLE_KM = 0.2
/** A polygon covering more resolution-7 cells than this is indexed at the coarser resolutions only. */
const MAX_POLYGON_CELLS = 5000

type Pos = ReadonlyArray<number>

const sampleLine = (coords: ReadonlyArray<Pos>): Array<Pos> => {
  const out: Array<Pos> = []
  for (let i = 0; i < coords.length; i++) {
    out.push(coords[i])
    if (i + 1 === coords.length) break
    const seg = turf.lineString([coords[i] as Array<number>, coords[i + 1] as Array<number>])
    const km = turf.length(seg)
    for (let d = SAMPLE_KM; d < km; d += SAMPLE_KM) out.push(turf.along(seg, d).geometry.coordinates)
  }
  return out
}

/**
 * The cells a line or polygon covers at every stored resolution, as `{res, cell}` rows; empty for
 * points (their row's own cell columns index them).
 */
export const cellsAlong = (g: { type: string; coordinates: unknown }): Array<{ res: Resolution; cell: string }> => {
  const set = new Set<string>()
  const add = (res: Resolution, h: string) => set.add(`${res}:${toDecimal(h)}`)
  const addPoint = ([lng, lat]: Pos) => {
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return
    for (const res of RESOLUTIONS) add(res, latLngToCell(lat, lng, res))
  }
  try {
    const c = g.coordinates as never
    switch (g.type) {
      case "LineString":
        sampleLine(c).forEach(addPoint)
        break
      case "MultiLineString":
      case "Polygon":
        if (g.type === "MultiLineString") for (const line of c as Array<Array<Pos>>) sampleLine(line).forEach(addPoint)
        else {
          for (const res of RESOLUTIONS) {
            const cells = polygonToCellsExperimental(c, res, POLYGON_TO_CELLS_FLAGS.containmentOverlapping, true)
            if (res === 7 && cells.length > MAX_POLYGON_CELLS) continue
            for (const h of cells) add(res, h)
          }
          for (const ring of c as Array<Array<Pos>>) sampleLine(ring).forEach(addPoint)
        }
        break
      case "MultiPoint":
        for (const p of c as Array<Pos>) addPoint(p)
        break
      case "MultiPolygon":
        for (const poly of c as Array<unknown>) cellsAlong({ type: "Polygon", coordinates: poly }).forEach((x) => set.add(`${x.res}:${x.cell}`))
        break
      default:
        return []
    }
  } catch {
    return []
  }
  return [...set].map((s) => {
    const [res, cell] = s.split(":")
    return { res: Number(res) as Resolution, cell }
  })
}
