import { describe, expect, it } from "vitest"
import { dropOldestWhile, lowWater, trimOldest } from "../../../shared/cache/trimOldest.js"

const filled = (n: number) => new Map<string, number>(Array.from({ length: n }, (_, i) => [`k${i}`, i] as const))

describe("bounded maps", () => {
  it("leaves a map within its bound alone", () => {
    const m = filled(100)
    trimOldest(m, 100)
    expect(m.size).toBe(100)
  })

  it("drops the oldest entries, by insertion order, down to nine tenths of the bound", () => {
    const m = filled(100)
    // a hit re-inserts: k0 becomes the newest
    m.delete("k0")
    m.set("k0", 0)
    m.set("k100", 100)
    trimOldest(m, 100)
    expect(m.size).toBe(90)
    expect(lowWater(100)).toBe(90)
    // k1 … k11 were the oldest eleven
    expect([...m.keys()].slice(0, 2)).toEqual(["k12", "k13"])
    expect(m.has("k0")).toBe(true)
    expect(m.has("k100")).toBe(true)
  })

  it("drops just enough from a bound under 10", () => {
    const m = filled(3)
    trimOldest(m, 2)
    expect([...m.keys()]).toEqual(["k1", "k2"])
    expect(lowWater(9)).toBe(9)
  })

  it("drops while asked, through the caller's own drop, and stops on an empty map", () => {
    const m = filled(5)
    const dropped: Array<string> = []
    dropOldestWhile(
      m,
      () => m.size > 3,
      (k) => {
        dropped.push(k)
        m.delete(k)
      }
    )
    expect(dropped).toEqual(["k0", "k1"])
    dropOldestWhile(m, () => true)
    expect(m.size).toBe(0)
  })

  it("trims a full map once per tenth of its bound, not once per insert", () => {
    // the count of slots walked, not time: each trim's walk is bounded by the map's table, and
    // trims come once per tenth of the bound
    const m = filled(10_000)
    let trims = 0
    for (let i = 0; i < 50_000; i++) {
      m.set(`n${i}`, i)
      if (m.size > 10_000) trims++
      trimOldest(m, 10_000)
    }
    expect(m.size).toBeLessThanOrEqual(10_000)
    expect(m.size).toBeGreaterThanOrEqual(9_000)
    expect(trims).toBeLessThanOrEqual(50)
  })
})
