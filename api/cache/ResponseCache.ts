import { dropOldestWhile, lowWater, trimOldest } from "../../shared/cache/trimOldest.js"

/**
 * One worker's shared answers to identical questions. An answer is filed under the
 * tags it depends on (shared/cache/invalidation.ts); a materialized change names the tags it
 * moved, over Redis Pub/Sub, and every answer filed under one of them turns stale.
 *
 * Admission: an answer is kept from the second time its question is asked within a minute.
 *
 * Freshness: an answer reflects the database as of the moment its computation began
 * (`startedAt`). A stale answer younger than `coalesceMs` is served as it is (many changes a
 * second collapse into one recomputation); older than that, one recomputation starts and is
 * shared by every request for the same key, and the stale answer is served meanwhile only while
 * it is younger than `staleMs`. So a change that became queryable is missed for at most
 * `staleMs` plus the Pub/Sub hop. Without a live subscription (not yet confirmed, or lost) the
 * cache is bypassed and emptied: nothing is served that an invalidation could have missed.
 */

export interface ResponseCacheOptions {
  /** most answers held */
  readonly maxEntries: number
  /** most bytes of answers held (by `sizeOf`) */
  readonly maxBytes: number
  /** a stale answer younger than this is served without a recomputation */
  readonly coalesceMs: number
  /** a stale answer younger than this is served while its recomputation runs */
  readonly staleMs: number
  /**
   * an answer is kept only for a question asked before within this window: one-off questions
   * (a map panned once, a unique radius) would only push polled answers out and load the heap
   */
  readonly admitWithinMs: number
}

export const DEFAULT_CACHE_OPTIONS: ResponseCacheOptions = {
  maxEntries: 20_000,
  maxBytes: 128 * 1024 * 1024,
  coalesceMs: 200,
  staleMs: 600,
  admitWithinMs: 60_000
}

/** What a computation answers: its value, and whether (and under which tags, for how long) it may be kept. */
export interface Computed<T> {
  readonly value: T
  /** null: not kept (an error, or an answer that declared no dependencies) */
  readonly keep: { readonly tags: ReadonlyArray<string>; readonly ttlMs: number; readonly bytes: number } | null
}

interface Entry<T> {
  readonly value: T
  readonly tags: ReadonlyArray<string>
  readonly startTick: number
  readonly startedAt: number
  readonly ttlMs: number
  readonly bytes: number
}

/**
 * hit: kept and current; stale: kept, changed underneath, within the staleness budget; miss: computed; shared: joined
 * a computation under way; bypass: no live invalidation feed
 */
export type CacheOutcome = "hit" | "stale" | "miss" | "shared" | "bypass"

export interface Answered<T> {
  readonly value: T
  readonly outcome: CacheOutcome
}

export interface CacheStats {
  readonly entries: number
  readonly bytes: number
  readonly live: boolean
}

/**
 * `clock`: milliseconds on a monotonic scale; answers' ages are this process's own durations, never compared with
 * data.
 */
export const makeResponseCache = <T>(
  options: ResponseCacheOptions = DEFAULT_CACHE_OPTIONS,
  clock: () => number = () => performance.now()
) => {
  let live = false
  let tick = 0
  let epoch = 0
  let bytes = 0
  const tagTick = new Map<string, number>()
  const entries = new Map<string, Entry<T>>()
  const inflight = new Map<string, Promise<T>>()
  /** when each question not (yet) kept was last asked; bounded like the entries */
  const asked = new Map<string, number>()
  const askedBefore = (key: string, at: number) => {
    const last = asked.get(key)
    asked.delete(key)
    asked.set(key, at)
    trimOldest(asked, options.maxEntries * 2)
    return last !== undefined && at - last < options.admitWithinMs
  }
  const counts: Record<CacheOutcome, number> = { hit: 0, stale: 0, miss: 0, shared: 0, bypass: 0 }

  const drop = (key: string) => {
    const e = entries.get(key)
    if (!e) return
    bytes -= e.bytes
    entries.delete(key)
  }
  const clear = () => {
    epoch++
    entries.clear()
    asked.clear()
    bytes = 0
  }
  const isStale = (e: Entry<T>, at: number) =>
    at - e.startedAt >= e.ttlMs || e.tags.some((t) => (tagTick.get(t) ?? 0) > e.startTick)

  const store = (key: string, entry: Entry<T>) => {
    drop(key)
    if (entry.bytes > options.maxBytes / 16) return
    entries.set(key, entry)
    bytes += entry.bytes
    // Map order is insertion order and a hit re-inserts: the first key is the least recently used;
    // a full cache drops to nine tenths of its bounds in one walk (trimOldest.ts says why)
    if (entries.size > options.maxEntries || bytes > options.maxBytes) {
      const keepEntries = lowWater(options.maxEntries)
      const keepBytes = lowWater(options.maxBytes)
      dropOldestWhile(entries, () => entries.size > keepEntries || bytes > keepBytes, drop)
    }
  }

  /** One computation per key at a time; its answer is kept if it may be and nothing emptied the cache meanwhile. */
  const recompute = (
    key: string,
    compute: () => Promise<Computed<T>>,
    admit: boolean
  ): { promise: Promise<T>; joined: boolean } => {
    const running = inflight.get(key)
    if (running) return { promise: running, joined: true }
    const startTick = tick
    const startedAt = clock()
    const startEpoch = epoch
    const promise = compute().then(
      (c) => {
        inflight.delete(key)
        if (admit && c.keep && live && epoch === startEpoch) {
          asked.delete(key)
          store(key, {
            value: c.value,
            tags: c.keep.tags,
            startTick,
            startedAt,
            ttlMs: c.keep.ttlMs,
            bytes: c.keep.bytes
          })
        }
        return c.value
      },
      (e) => {
        inflight.delete(key)
        throw e
      }
    )
    inflight.set(key, promise)
    return { promise, joined: false }
  }

  return {
    /** The answer for `key`: kept, shared with a computation under way, or computed. */
    answer: (key: string, compute: () => Promise<Computed<T>>): Promise<Answered<T>> => {
      const served = (outcome: CacheOutcome, value: T): Answered<T> => {
        counts[outcome]++
        return { value, outcome }
      }
      if (!live) return compute().then((c) => served("bypass", c.value))
      const at = clock()
      const e = entries.get(key)
      if (e) {
        // a hit moves to the back of the LRU order
        entries.delete(key)
        entries.set(key, e)
        if (!isStale(e, at)) return Promise.resolve(served("hit", e.value))
        const age = at - e.startedAt
        if (age < options.coalesceMs) return Promise.resolve(served("stale", e.value))
        const r = recompute(key, compute, true)
        if (age < options.staleMs) {
          r.promise.catch(() => undefined)
          return Promise.resolve(served("stale", e.value))
        }
        return r.promise.then((v) => served(r.joined ? "shared" : "miss", v))
      }
      const r = recompute(key, compute, askedBefore(key, at))
      return r.promise.then((v) => served(r.joined ? "shared" : "miss", v))
    },
    /** Tags a change moved: every answer filed under one of them turns stale. */
    invalidate: (tags: Iterable<string>) => {
      tick++
      for (const t of tags) tagTick.set(t, tick)
    },
    /** The invalidation feed is confirmed live: start from empty. */
    connected: () => {
      clear()
      live = true
    },
    /** The feed is lost: bypass and empty until it is back. */
    disconnected: () => {
      live = false
      clear()
    },
    stats: (): CacheStats => ({ entries: entries.size, bytes, live }),
    /** outcomes counted since start, for /metrics */
    counts: (): Readonly<Record<CacheOutcome, number>> => ({ ...counts })
  }
}

export type ResponseCache<T> = ReturnType<typeof makeResponseCache<T>>
