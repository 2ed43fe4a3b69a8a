import * as turf from "@turf/turf"
import { getHexagonAreaAvg, latLngToCell, POLYGON_TO_CELLS_FLAGS, polygonToCellsExperimental } from "h3-js"
import { CellFacts, H3_EARTH_KM, km, RAD } from "./cellFacts.js"

/** Resolutions stored per row (columns h3_r3, h3_r5, h3_r7). */
export const RESOLUTIONS = [7, 5, 3] as const
export type Resolution = (typeof RESOLUTIONS)[number]

/** Cell ids as decimal strings: they fill int8 and would lose bits as JS numbers. */
const toDecimal = (h: string) => BigInt("0x" + h).toString()

const RES_BITS = 0xfn << 52n
/** the digits of resolutions 4–7 set to 7, "unused": a res-3 index above a res-7 one */
const UNUSED_4_7 = 0xfffn << 24n
/** the digits of resolutions 6–15 set to 7: a res-5 index below any finer one */
const UNUSED_6_15 = (1n << 30n) - 1n

/**
 * The res-5 parent of a decimal cell id at resolution 5 or finer, by the H3 bit layout (as
 * `cellsOf` makes it): far cheaper than asking h3-js, and routes ask it of thousands of cells.
 */
export const parentAt5 = (cell: string) => ((BigInt(cell) & ~RES_BITS) | (5n << 52n) | UNUSED_6_15).toString()

/** The distinct res-5 parents of decimal cell ids at a finer resolution. */
export const parentsAt5 = (cells: Iterable<string>) => {
  const out = new Set<string>()
  for (const c of cells) out.add(parentAt5(c))
  return [...out]
}

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
    r5: (base | (5n << 52n) | UNUSED_6_15).toString(),
    r7: r7.toString()
  }
}

/**
 * The finest stored resolution whose cover stays under about half this many cells (measured best with the cell index:
 * bench:api).
 */
const MAX_CELLS = 300

const pickResolution = (areaKm2: number): Resolution => {
  for (const res of RESOLUTIONS) if (areaKm2 / getHexagonAreaAvg(res, "km2") <= MAX_CELLS / 2) return res
  return 3
}

export interface CellCover {
  readonly res: Resolution
  readonly cells: ReadonlyArray<string>
}

/** What the covers know of cells, per process. */
const facts = new CellFacts()

/**
 * A cover larger than this is not worth sending as a prefilter (the queries skip it past 1,000); growing stops there.
 */
const MAX_COVER_CELLS = 1000

/**
 * A region whose area holds this many times MAX_COVER_CELLS average cells is not grown at all:
 * the cover would be dropped anyway. (Cells vary in area about 2× over the globe, hence the slack.)
 */
const hopeless = (areaKm2: number, res: Resolution) => areaKm2 / getHexagonAreaAvg(res, "km2") > 1.5 * MAX_COVER_CELLS

/**
 * The cells that may touch a connected region, grown outward from a cell holding a point of it
 * through the cells that touch. Sound, not just likely: three cells meet at every H3 vertex, so
 * cells touching a connected region form an edge-connected patch, and a flood through touching
 * neighbours from the seed reaches all of it. Each touching cell's six neighbours are tested once
 * (gridRing at large k costs milliseconds per ring: a national view took seconds). `mayTouch` may
 * say yes too often (more cells), never too rarely. Null when the cover would exceed MAX_COVER_CELLS.
 */
const growCover = (res: Resolution, seed: string, mayTouch: (slot: number) => boolean): CellCover | null => {
  facts.startCover()
  const first = facts.slot(seed)
  facts.firstSeen(first)
  const cells = [first]
  for (let i = 0; i < cells.length; i++) {
    const ring = facts.ring(cells[i])
    for (let j = 0; j < ring.length; j++) {
      const next = ring[j]
      if (!facts.firstSeen(next) || !mayTouch(next)) continue
      cells.push(next)
      if (cells.length > MAX_COVER_CELLS) return null
    }
  }
  return { res, cells: cells.map((c) => facts.decimal[c]) }
}

type LatLng = [number, number]

/** Beyond this a cover is no cheaper than the exact test (and would exceed MAX_COVER_CELLS). */
const MAX_COVER_RADIUS_KM = 2000

/**
 * Cells that together contain every point within `radiusKm` (a prefilter: the exact great-circle
 * test follows in SQL), or null for a circle too large to be worth it. The SQL distance uses
 * another Earth radius than H3 (6,371.0088 vs 6,371.0072 km), hence the small margin.
 */
export const coverCircle = (lat: number, lng: number, radiusKm: number): CellCover | null => {
  if (radiusKm > MAX_COVER_RADIUS_KM) return null
  const res = pickResolution(Math.PI * radiusKm * radiusKm)
  if (hopeless(Math.PI * radiusKm * radiusKm, res)) return null
  const reach = radiusKm * 1.001 + 0.01
  return growCover(
    res,
    latLngToCell(lat, lng, res),
    (cell) => km(lat, lng, facts.lat[cell], facts.lng[cell]) <= reach + facts.reach[cell]
  )
}

/**
 * How far a great-circle edge can bulge poleward of its end vertices' latitudes, in degrees:
 * under 0.002° for the longest stored edges (res 3, ~70 km) at 60°, and 0.02° covers them to 85°.
 */
const EDGE_BULGE_DEG = 0.02
/** Boxes reaching nearer the poles than this are left to the exact test (edges bulge more there). */
const MAX_COVER_LAT = 85

/** Cells touching a lng/lat box, or null near the poles or when the cover would be too large. */
export const coverBbox = (minLng: number, minLat: number, maxLng: number, maxLat: number): CellCover | null => {
  if (Math.max(Math.abs(minLat), Math.abs(maxLat)) > MAX_COVER_LAT || minLng > maxLng || minLat > maxLat) return null
  // sized by the circle around the box, so a long thin box does not take hundreds of rings
  const center: LatLng = [(minLat + maxLat) / 2, (minLng + maxLng) / 2]
  const halfDiagKm = Math.max(
    km(center[0], center[1], minLat, minLng),
    km(center[0], center[1], maxLat, maxLng),
    km(center[0], center[1], minLat, maxLng)
  )
  const res = pickResolution(Math.PI * halfDiagKm * halfDiagKm)
  const boxKm2 =
    H3_EARTH_KM * H3_EARTH_KM * (maxLng - minLng) * RAD * Math.abs(Math.sin(maxLat * RAD) - Math.sin(minLat * RAD))
  if (hopeless(boxKm2, res)) return null
  return growCover(res, latLngToCell(center[0], center[1], res), (cell) => {
    const west = facts.west[cell],
      east = facts.east[cell]
    // a cell across the antimeridian spans every longitude here: kept, never wrongly dropped
    const lngOverlap = east - west > 180 || (east >= minLng && west <= maxLng)
    return lngOverlap && facts.north[cell] + EDGE_BULGE_DEG >= minLat && facts.south[cell] - EDGE_BULGE_DEG <= maxLat
  })
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
        for (const poly of c as Array<unknown>)
          cellsAlong({ type: "Polygon", coordinates: poly }).forEach((x) => set.add(`${x.res}:${x.cell}`))
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
