/**
 * Which road pieces each barrier slot lies near, at what distance, and which slots each piece
 * has, in typed arrays. A worker holds about 100,000 barriers for its whole life and every full
 * collection marks all they hold: as an object with its own arrays of keys and distances, a
 * barrier was about eleven heap objects; here its pieces are none (docs/BENCHMARKS.md, stop 64).
 * A piece is the engine's key, numbered once (the network bounds how many there are); a slot is
 * the caller's small integer.
 */
export class SlotPieces {
  private readonly numberOf = new Map<string, number>()
  private readonly keys: Array<string> = []
  /** per slot: where its pieces start in the pool, and how many */
  private from = new Int32Array(1024)
  private count = new Int32Array(1024)
  /** every slot's pieces and distances, one run per slot; a cleared run stays until compaction */
  private pool = new Int32Array(4096)
  private dist = new Float64Array(4096)
  private used = 0
  private dead = 0
  /** per piece: one of its slots plus one (0: none), the others in `more` (few pieces have several) */
  private first = new Int32Array(1024)
  private readonly more = new Map<number, Array<number>>()

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
      const piece = this.pieceOf(keys[i])
      this.pool[this.used] = piece
      this.dist[this.used++] = distances[i]
      if (this.first[piece] === 0) this.first[piece] = slot + 1
      else {
        const list = this.more.get(piece)
        if (list) list.push(slot)
        else this.more.set(piece, [slot])
      }
    }
  }

  clear(slot: number) {
    const n = this.count[slot]
    for (let i = this.from[slot]; i < this.from[slot] + n; i++) {
      const piece = this.pool[i]
      const list = this.more.get(piece)
      if (this.first[piece] === slot + 1) {
        // another slot at the piece moves up, or the piece has none
        this.first[piece] = list ? list.pop()! + 1 : 0
        if (list && list.length === 0) this.more.delete(piece)
      } else if (list) {
        const at = list.indexOf(slot)
        if (at >= 0) list.splice(at, 1)
        if (list.length === 0) this.more.delete(piece)
      }
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
    if (piece === undefined || this.first[piece] === 0) return
    f(this.first[piece] - 1, piece)
    const list = this.more.get(piece)
    if (list) for (const slot of list) f(slot, piece)
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
      if (piece >= this.first.length) this.first = grown(this.first, piece + 1)
    }
    return piece
  }

  /** Makes room for `more` pieces: drops cleared runs when they are half the pool, else grows it. */
  private compact(more: number) {
    const live = this.used - this.dead
    const size = Math.max(this.pool.length, 2 * (live + more))
    const pool = new Int32Array(size)
    const dist = new Float64Array(size)
    let at = 0
    for (let slot = 0; slot < this.from.length; slot++) {
      const n = this.count[slot]
      if (n === 0) continue
      pool.set(this.pool.subarray(this.from[slot], this.from[slot] + n), at)
      dist.set(this.dist.subarray(this.from[slot], this.from[slot] + n), at)
      this.from[slot] = at
      at += n
    }
    this.pool = pool
    this.dist = dist
    this.used = at
    this.dead = 0
  }
}

/** A typed array at least `need` long (twice as long as before at least), with what it held. */
export const grown = <T extends Int32Array | Float64Array | Uint8Array>(a: T, need: number): T => {
  const b = new (a.constructor as new (n: number) => T)(Math.max(need, 2 * a.length))
  b.set(a)
  return b
}
