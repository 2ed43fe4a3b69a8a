import { describe, expect, it } from "vitest"
import { type Computed, makeResponseCache } from "../../../api/cache/ResponseCache.js"
import { canonicalQuery } from "../../../api/cache/cacheKey.js"
import { noneMatchHits } from "../../../api/http/preparedAnswer.js"
import { changedTags, dependencyTags } from "../../../shared/cache/invalidation.js"

/** A cache on a clock the test moves, and a computation that counts its runs. */
const world = (
  options = { maxEntries: 100, maxBytes: 1_000_000, coalesceMs: 200, staleMs: 600, admitWithinMs: 60_000 }
) => {
  let now = 1_000_000
  const cache = makeResponseCache<string>(options, () => now)
  cache.connected()
  let runs = 0
  const compute =
    (value: string, tags = ["event:NY", "event:*"], ttlMs = 30_000) =>
    (): Promise<Computed<string>> => {
      runs++
      return Promise.resolve({ value, keep: { tags, ttlMs, bytes: value.length } })
    }
  /** a question asked twice: the second answer is kept (admission) */
  const keep = async (key: string, value: string, tags?: Array<string>, ttlMs?: number) => {
    await cache.answer(key, compute(value, tags, ttlMs))
    return cache.answer(key, compute(value, tags, ttlMs))
  }
  return { cache, compute, keep, runs: () => runs, advance: (ms: number) => (now += ms) }
}

describe("response cache", () => {
  it("keeps an answer from the second ask, until a change names one of its tags", async () => {
    const w = world()
    expect(await w.cache.answer("k", w.compute("v0"))).toEqual({ value: "v0", outcome: "miss" })
    expect(await w.cache.answer("k", w.compute("v1"))).toEqual({ value: "v1", outcome: "miss" })
    expect(await w.cache.answer("k", w.compute("v2"))).toEqual({ value: "v1", outcome: "hit" })
    w.cache.invalidate(["event:NJ", "event:any"])
    expect((await w.cache.answer("k", w.compute("v2"))).outcome).toBe("hit")
    w.cache.invalidate(["event:NY", "event:any"])
    w.advance(1000)
    expect(await w.cache.answer("k", w.compute("v2"))).toEqual({ value: "v2", outcome: "miss" })
    expect(w.runs()).toBe(3)
  })

  it("keeps nothing for a question asked once, or not again within the admission window", async () => {
    const w = world()
    await w.cache.answer("once", w.compute("a"))
    expect(w.cache.stats().entries).toBe(0)
    w.advance(61_000)
    await w.cache.answer("once", w.compute("b"))
    expect(w.cache.stats().entries).toBe(0)
    await w.cache.answer("once", w.compute("c"))
    expect(w.cache.stats().entries).toBe(1)
  })

  it("coalesces changes: a stale answer younger than coalesceMs is served, then one recomputation runs while the stale one is served", async () => {
    const w = world()
    await w.keep("k", "v1")
    w.cache.invalidate(["event:*"])
    w.advance(100)
    expect(await w.cache.answer("k", w.compute("never"))).toEqual({ value: "v1", outcome: "stale" })
    w.advance(200)
    let release!: () => void
    const slow = () => {
      const c = w.compute("v2")()
      return new Promise<Computed<string>>((r) => {
        release = () => r(c)
      })
    }
    // past coalesceMs, before staleMs: served stale, one recomputation starts
    expect(await w.cache.answer("k", slow)).toEqual({ value: "v1", outcome: "stale" })
    expect(await w.cache.answer("k", w.compute("never"))).toEqual({ value: "v1", outcome: "stale" })
    expect(w.runs()).toBe(3)
    release()
    await new Promise((r) => setTimeout(r, 0))
    expect(await w.cache.answer("k", w.compute("never"))).toEqual({ value: "v2", outcome: "hit" })
  })

  it("past staleMs a request waits for the one shared recomputation", async () => {
    const w = world()
    await w.keep("k", "v1")
    w.cache.invalidate(["event:NY"])
    w.advance(700)
    let release!: () => void
    const slow = () => {
      const c = w.compute("v2")()
      return new Promise<Computed<string>>((r) => {
        release = () => r(c)
      })
    }
    const a = w.cache.answer("k", slow)
    const b = w.cache.answer("k", w.compute("never"))
    release()
    expect(await a).toEqual({ value: "v2", outcome: "miss" })
    expect(await b).toEqual({ value: "v2", outcome: "shared" })
    expect(w.runs()).toBe(3)
  })

  it("an invalidation during a computation leaves its answer stale", async () => {
    const w = world()
    let release!: () => void
    const slow = () => {
      const c = w.compute("old")()
      return new Promise<Computed<string>>((r) => {
        release = () => r(c)
      })
    }
    await w.cache.answer("k", w.compute("asked"))
    const first = w.cache.answer("k", slow)
    w.cache.invalidate(["event:NY"])
    release()
    await first
    w.advance(700)
    expect(await w.cache.answer("k", w.compute("new"))).toEqual({ value: "new", outcome: "miss" })
  })

  it("expires answers by their own lifetime", async () => {
    const w = world()
    await w.keep("k", "v1", ["event:any"], 1000)
    w.advance(999)
    expect((await w.cache.answer("k", w.compute("v2"))).outcome).toBe("hit")
    w.advance(700)
    expect((await w.cache.answer("k", w.compute("v2"))).value).toBe("v2")
  })

  it("keeps nothing it may not, and nothing while the feed is not live", async () => {
    const w = world()
    await w.cache.answer("err", () => Promise.resolve({ value: "error", keep: null }))
    await w.cache.answer("err", () => Promise.resolve({ value: "error", keep: null }))
    expect((await w.cache.answer("err", w.compute("ok"))).outcome).toBe("miss")
    w.cache.disconnected()
    expect(w.cache.stats()).toEqual({ entries: 0, bytes: 0, live: false })
    expect((await w.cache.answer("k", w.compute("a"))).outcome).toBe("bypass")
    expect((await w.cache.answer("k", w.compute("b"))).outcome).toBe("bypass")
    // a computation that began before the feed was lost is not kept after it returns
    w.cache.connected()
    let release!: () => void
    const slow = () => {
      const c = w.compute("before")()
      return new Promise<Computed<string>>((r) => {
        release = () => r(c)
      })
    }
    await w.cache.answer("k2", w.compute("asked"))
    const p = w.cache.answer("k2", slow)
    w.cache.disconnected()
    w.cache.connected()
    release()
    await p
    expect(w.cache.stats().entries).toBe(0)
  })

  it("holds at most maxEntries and maxBytes, dropping the least recently used", async () => {
    const w = world({ maxEntries: 3, maxBytes: 1_000, coalesceMs: 200, staleMs: 600, admitWithinMs: 60_000 })
    for (const k of ["a", "b", "c"]) await w.keep(k, k)
    await w.cache.answer("a", w.compute("x"))
    await w.keep("d", "d")
    expect((await w.cache.answer("a", w.compute("x"))).outcome).toBe("hit")
    expect((await w.cache.answer("b", w.compute("b"))).outcome).toBe("miss")
    const big = world({ maxEntries: 100, maxBytes: 1_600, coalesceMs: 200, staleMs: 600, admitWithinMs: 60_000 })
    await big.keep("huge", "x".repeat(200))
    expect(big.cache.stats().entries).toBe(0)
    for (let i = 0; i < 40; i++) await big.keep(`k${i}`, "y".repeat(90))
    expect(big.cache.stats().bytes).toBeLessThanOrEqual(1_600)
  })
})

describe("cache keys and tags", () => {
  it("orders parameters and leaves the key parameter out", () => {
    expect(canonicalQuery("limit=5&jurisdiction=NJ&api_key=rds_secret")).toBe(canonicalQuery("jurisdiction=NJ&limit=5"))
    expect(canonicalQuery("type=a&type=b")).not.toBe(canonicalQuery("type=b&type=a"))
  })

  it("files answers by jurisdiction and announces changes by theirs", () => {
    expect(dependencyTags("event", ["NY", "nj"])).toEqual(["event:NY", "event:NJ", "event:*"])
    expect(dependencyTags("feature", undefined)).toEqual(["feature:any"])
    const tags = changedTags([
      { kind: "event", keys: { jurisdiction: "NY" } },
      { kind: "feature", keys: { jurisdiction: "BC" } }
    ] as never)
    expect([...tags].sort()).toEqual(["event:NY", "event:any", "feature:BC", "feature:any"])
  })

  it("judges If-None-Match by weak comparison", () => {
    expect(noneMatchHits('"abc"', '"abc"')).toBe(true)
    expect(noneMatchHits('W/"abc", "x"', '"abc"')).toBe(true)
    expect(noneMatchHits("*", '"abc"')).toBe(true)
    expect(noneMatchHits('"abd"', '"abc"')).toBe(false)
  })
})
