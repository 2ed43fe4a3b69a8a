/**
 * Which road pieces each barrier slot lies near, at what distance, and which slots each piece
 * has, in typed arrays; a piece's slots are a chain through the entries (many pieces have
 * several). A worker holds about 100,000 barriers for its whole life and every full collection
 * marks all they hold: as an object with its own arrays of keys and distances, a barrier was
 * about eleven heap objects; here its pieces add none (docs/BENCHMARKS.md). A piece is
 * the engine's key, numbered once (the network bounds how many there are); a slot is the
 * caller's small integer.
 */
export class SlotPieces {
  private readonly numberOf = new Map<string, number>()
  private readonly keys: Array<string> = []
  /** per slot: where its pieces start in the pool, and how many */
  private from = new Int32Array(1024)
  private count = new Int32Array(1024)
  /**
   * Every slot's pieces and distances, one run of entries per slot (a cleared run stays until
   * compaction); each entry's slot, and the next entry at the same piece (-1: none)
   */
  private pool = new Int32Array(4096)
  private dist = new Float64Array(4096)
  private slotAt = new Int32Array(4096)
  private nextAt = new Int32Array(4096)
  private used = 0
  private dead = 0
  /** per piece: its newest entry plus one (0: none); the piece's other entries follow through `nextAt` */
  private head = new Int32Array(1024)

  /** The slot's pieces from now on (none before: `clear` first when it had some). */
  set(slot: number, keys: ReadonlyArray<string>, distances: ReadonlyArray<number>) {
    if (slot >= this.from.length) {
      this.from = grown(this.from, slot + 1)
      this.count = grown(this.count, slot + 1)
    }
    if (this.used + keys.length > this.pool.length) this.compact(keys.length)
    this.from[slot] = this.used
    this.count[slot] = keys.length
    for (let i = 0; i < keys.length; i++) {
      const entry = this.used++
      this.pool[entry] = this.pieceOf(keys[i])
      this.dist[entry] = distances[i]
      this.slotAt[entry] = slot
      this.link(entry)
    }
  }

  /** puts an entry first in its piece's chain */
  private link(entry: number) {
    const piece = this.pool[entry]
    this.nextAt[entry] = this.head[piece] - 1
    this.head[piece] = entry + 1
  }

  clear(slot: number) {
    const n = this.count[slot]
    for (let entry = this.from[slot]; entry < this.from[slot] + n; entry++) {
      // unlinked from its piece's chain (a few entries long)
      const piece = this.pool[entry]
      let before = -1
      let at = this.head[piece] - 1
      while (at !== entry) {
        before = at
        at = this.nextAt[at]
      }
      if (before < 0) this.head[piece] = this.nextAt[entry] + 1
      else this.nextAt[before] = this.nextAt[entry]
    }
    this.count[slot] = 0
    this.dead += n
  }

  /** Calls `f` with each of the slot's pieces and its distance. */
  each(slot: number, f: (piece: number, distanceM: number) => void) {
    const end = this.from[slot] + this.count[slot]
    for (let i = this.from[slot]; i < end; i++) f(this.pool[i], this.dist[i])
  }

  /** The slot's distance from the piece named by this key; Infinity when the piece is not one of its. */
  distance(slot: number, piece: number): number {
    const end = this.from[slot] + this.count[slot]
    for (let i = this.from[slot]; i < end; i++) if (this.pool[i] === piece) return this.dist[i]
    return Number.POSITIVE_INFINITY
  }

  /** Calls `f` with each slot near the piece this key names (none for a key never set). */
  slotsAt(key: string, f: (slot: number, piece: number) => void) {
    const piece = this.numberOf.get(key)
    if (piece === undefined) return
    for (let entry = this.head[piece] - 1; entry >= 0; entry = this.nextAt[entry]) f(this.slotAt[entry], piece)
  }

  /** A piece's number for an engine key, or undefined for a key never set. */
  pieceNumber(key: string) {
    return this.numberOf.get(key)
  }

  key(piece: number) {
    return this.keys[piece]
  }

  private pieceOf(key: string) {
    let piece = this.numberOf.get(key)
    if (piece === undefined) {
      piece = this.keys.length
      this.keys.push(key)
      this.numberOf.set(key, piece)
      if (piece >= this.head.length) this.head = grown(this.head, piece + 1)
    }
    return piece
  }

  /** Makes room for `more` pieces: drops cleared runs when they are half the pool, else grows it. */
  private compact(more: number) {
    const live = this.used - this.dead
    const size = Math.max(this.pool.length, 2 * (live + more))
    const pool = new Int32Array(size)
    const dist = new Float64Array(size)
    const slotAt = new Int32Array(size)
    let at = 0
    for (let slot = 0; slot < this.from.length; slot++) {
      const n = this.count[slot]
      if (n === 0) continue
      pool.set(this.pool.subarray(this.from[slot], this.from[slot] + n), at)
      dist.set(this.dist.subarray(this.from[slot], this.from[slot] + n), at)
      slotAt.fill(slot, at, at + n)
      this.from[slot] = at
      at += n
    }
    this.pool = pool
    this.dist = dist
    this.slotAt = slotAt
    this.nextAt = new Int32Array(size)
    this.used = at
    this.dead = 0
    // the chains again, over the entries' new places
    this.head.fill(0)
    for (let entry = 0; entry < at; entry++) this.link(entry)
  }
}

/** A typed array at least `need` long (twice as long as before at least), with what it held. */
export const grown = <T extends Int32Array | Float64Array | Uint8Array>(a: T, need: number): T => {
  const b = new (a.constructor as new (n: number) => T)(Math.max(need, 2 * a.length))
  b.set(a)
  return b
}
