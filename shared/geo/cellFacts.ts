import { cellToBoundary, cellToLatLng, gridDisk } from "h3-js"

/** About 80 bytes each: a few tens of MB at most, for every resolution-5 cell of the continent and then some. */
const MAX_KEPT = 200_000

/** H3's own Earth radius (greatCircleDistance), in JS: the wasm call costs more than the sum. */
export const H3_EARTH_KM = 6371.007180918475
export const RAD = Math.PI / 180

/** Great-circle km between two points in degrees, on H3's sphere. */
export const km = (aLat: number, aLng: number, bLat: number, bLng: number) => {
  const sLat = Math.sin(((bLat - aLat) * RAD) / 2)
  const sLng = Math.sin(((bLng - aLng) * RAD) / 2)
  const h = sLat * sLat + Math.cos(aLat * RAD) * Math.cos(bLat * RAD) * sLng * sLng
  return 2 * H3_EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

const grown = <T extends Float64Array | Uint32Array>(a: T, size: number): T => {
  if (size <= a.length) return a
  const next = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2))
  next.set(a)
  return next
}

/**
 * What the covers ask of a cell (its neighbours, the box around its boundary, its center, how far it
 * reaches from it, its decimal id), worked out once per process and kept in columns by slot: a
 * cover's flood then walks numbers (neighbour slots, a stamp per slot for "seen") where it walked
 * strings through two Maps and a Set, each lookup a hash and a cache miss in a Map of up to
 * 200,000 keys (docs/BENCHMARKS.md). Each h3-js call crosses into wasm, and covers of
 * nearby questions share most cells.
 */
export class CellFacts {
  /** `maxKept`: past this many cells the store starts over at the next cover */
  constructor(private readonly maxKept = MAX_KEPT) {}
  private slotOf = new Map<string, number>()
  private size = 0
  private stamp = 0
  readonly decimal: Array<string> = []
  private rings: Array<Int32Array | undefined> = []
  private hex: Array<string> = []
  lat = new Float64Array(1024)
  lng = new Float64Array(1024)
  reach = new Float64Array(1024)
  south = new Float64Array(1024)
  north = new Float64Array(1024)
  west = new Float64Array(1024)
  east = new Float64Array(1024)
  private seenAt = new Uint32Array(1024)

  /** how many cells are kept */
  get kept() {
    return this.size
  }

  /** Forgets everything once full; only between covers, so no flood holds a slot that moved. */
  startCover() {
    if (this.size >= this.maxKept) {
      this.slotOf = new Map()
      this.size = 0
      this.decimal.length = 0
      this.rings.length = 0
      this.hex.length = 0
      this.seenAt.fill(0)
      this.stamp = 0
    }
    this.stamp = this.stamp === 0xffffffff ? 1 : this.stamp + 1
    if (this.stamp === 1) this.seenAt.fill(0)
  }

  /** True the first time a slot is met in this cover. */
  firstSeen(slot: number) {
    if (this.seenAt[slot] === this.stamp) return false
    this.seenAt[slot] = this.stamp
    return true
  }

  /** The slot of a cell (h3 hex id), its facts worked out on first ask. */
  slot(cell: string): number {
    const known = this.slotOf.get(cell)
    if (known !== undefined) return known
    const s = this.size++
    this.grow(this.size)
    const boundary = cellToBoundary(cell)
    const [cLat, cLng] = cellToLatLng(cell)
    let far = 0,
      south = Infinity,
      north = -Infinity,
      west = Infinity,
      east = -Infinity
    for (const [vLat, vLng] of boundary) {
      // H3 edges are great-circle arcs, and along a short arc the distance from a point peaks at an end
      far = Math.max(far, km(cLat, cLng, vLat, vLng))
      south = Math.min(south, vLat)
      north = Math.max(north, vLat)
      west = Math.min(west, vLng)
      east = Math.max(east, vLng)
    }
    this.lat[s] = cLat
    this.lng[s] = cLng
    this.reach[s] = far
    this.south[s] = south
    this.north[s] = north
    this.west[s] = west
    this.east[s] = east
    this.decimal[s] = BigInt("0x" + cell).toString()
    this.hex[s] = cell
    this.rings[s] = undefined
    this.slotOf.set(cell, s)
    return s
  }

  /** The slots of a cell and its six neighbours (five at a pentagon). */
  ring(slot: number): Int32Array {
    let r = this.rings[slot]
    if (r === undefined) {
      r = Int32Array.from(gridDisk(this.hex[slot], 1), (c) => this.slot(c))
      this.rings[slot] = r
    }
    return r
  }

  private grow(size: number) {
    if (size <= this.lat.length) return
    this.lat = grown(this.lat, size)
    this.lng = grown(this.lng, size)
    this.reach = grown(this.reach, size)
    this.south = grown(this.south, size)
    this.north = grown(this.north, size)
    this.west = grown(this.west, size)
    this.east = grown(this.east, size)
    this.seenAt = grown(this.seenAt, size)
  }
}
