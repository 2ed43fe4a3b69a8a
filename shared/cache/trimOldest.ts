/**
 * Bounding a Map by insertion order (the first key is the oldest, or the least recently used
 * where a hit re-inserts) without a walk per insert.
 *
 * V8's Map leaves a deleted entry's slot in its table until the table is rebuilt, and an
 * iterator walks those slots from the front. Dropping the one oldest entry per insert with
 * `m.keys().next()` therefore walks past every earlier drop each time (tens of µs an insert at
 * tens of thousands of entries). So a full map drops down to nine tenths of its bound in one walk.
 */

/** Drops oldest entries, in one walk, while `more()` holds. */
export const dropOldestWhile = <K, V>(
  m: Map<K, V>,
  more: () => boolean,
  drop: (key: K) => void = (key) => m.delete(key)
) => {
  const keys = m.keys()
  while (more()) {
    const next = keys.next()
    if (next.done) return
    drop(next.value)
  }
}

/** What a bounded map keeps after a trim: nine tenths of its bound (all of a bound under 10). */
export const lowWater = (max: number) => max - Math.floor(max / 10)

/**
 * Once `m` holds more than `max` entries, drops the oldest down to `lowWater(max)` (by `drop`, which deletes the
 * key).
 */
export const trimOldest = <K, V>(m: Map<K, V>, max: number, drop?: (key: K) => void) => {
  if (m.size <= max) return
  const keep = lowWater(max)
  dropOldestWhile(m, () => m.size > keep, drop)
}
