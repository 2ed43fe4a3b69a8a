import { ConfigProvider, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { RoutingConfig } from "../../../shared/routing/RoutingConfig.js"
import {
  DEFAULT_HAZARD_CELL_LIMITS,
  hazardCellLimits,
  KEEP_NOTHING,
  makeHazardCellStore
} from "../../../shared/routing/hazards/HazardCells.js"

/** A store after its first look at xmin 100, with one cell read under that look. */
const started = () => {
  const store = makeHazardCellStore({ cells: 10, features: 10 })
  store.observe(undefined, 100, [], true)
  store.view(100)!.put("events", "c7", ["row"], "c5")
  return store
}

describe("the store of route reads", () => {
  it("serves a read until a look finds its res-5 cell marked at or after the read's look", () => {
    const store = started()
    expect(store.view(100)!.get("events", "c7")).toEqual(["row"])
    // a mark by a transaction that ended before the read's look: the read saw it
    store.observe(store.since(), 110, [["c5", 99]], true)
    expect(store.view(110)!.get("events", "c7")).toEqual(["row"])
    // a mark on another cell leaves it alone
    store.observe(store.since(), 120, [["other", 105]], true)
    expect(store.view(120)!.get("events", "c7")).toEqual(["row"])
    // a change the read may not have seen
    store.observe(store.since(), 130, [["c5", 100]], true)
    expect(store.view(130)!.get("events", "c7")).toBeUndefined()
    // read again under a later look: good again
    store.view(130)!.put("events", "c7", ["new"], "c5")
    expect(store.view(130)!.get("events", "c7")).toEqual(["new"])
  })

  it("asks each look from the newest xmin whose marks are all known", () => {
    const store = started()
    expect(store.since()).toBe(100)
    store.observe(100, 150, [], true)
    expect(store.since()).toBe(150)
    // a look sent earlier (from 100) that answers late, with an older snapshot, moves nothing back
    store.observe(100, 140, [], true)
    expect(store.since()).toBe(150)
  })

  it("never serves a read older than the first look that knows marks", () => {
    const store = makeHazardCellStore({ cells: 10, features: 10 })
    // two first looks at once; the later snapshot answers first
    store.observe(undefined, 100, [], true)
    store.observe(undefined, 95, [], true)
    expect(store.since()).toBe(100)
    // the request of the older look may have read before a change (xid 97) that no look will ever report
    store.view(95)!.put("events", "c7", ["row"], "c5")
    expect(store.view(100)!.get("events", "c7")).toBeUndefined()
  })

  it("does not keep a read whose cell was marked before it was put", () => {
    const store = started()
    store.observe(100, 120, [["c5", 110]], true)
    // a request whose look was at 105 read c8 before transaction 110 committed
    store.view(105)!.put("events", "c8", ["row"], "c5")
    expect(store.view(120)!.get("events", "c8")).toBeUndefined()
  })

  it("starts over when a look finds more marks than it takes", () => {
    const store = started()
    store.observe(100, 500, [["c9", 300]], false)
    expect(store.view(500)!.get("events", "c7")).toBeUndefined()
    expect(store.since()).toBe(500)
    // a request of a look before the restart cannot put what it read
    store.view(400)!.put("events", "c7", ["row"], "c5")
    expect(store.view(500)!.get("events", "c7")).toBeUndefined()
    expect(store.stats().restarts).toBe(1)
  })

  it("holds at most its limit per kind, the oldest read dropped first", () => {
    const store = makeHazardCellStore({ cells: 2, features: 1 })
    store.observe(undefined, 1, [], true)
    const v = store.view(1)!
    for (const c of ["a", "b", "c"]) v.put("events", c, [c], "c5")
    expect(v.get("events", "a")).toBeUndefined()
    expect(v.get("events", "c")).toEqual(["c"])
    v.put("features", "f1", null, "c5")
    v.put("features", "f2", null, "c5")
    expect(v.get("features", "f1")).toBeUndefined()
    // a kept absence is served as such
    expect(v.get("features", "f2")).toBeNull()
  })

  it("keeps each read's own value, look and cell while slots are let go and taken again", () => {
    const store = makeHazardCellStore({ cells: 100, features: 10 })
    store.observe(undefined, 1, [], true)
    // 1,000 reads through a bound of 100: the newest 90–100 stay, each with what it was put with
    for (let i = 0; i < 1_000; i++) store.view(1 + (i % 7))!.put("events", `c${i}`, [i], `r5-${i % 13}`)
    const v = store.view(10)!
    expect(v.get("events", "c0")).toBeUndefined()
    expect(v.get("events", "c899")).toBeUndefined()
    for (let i = 910; i < 1_000; i++) expect(v.get("events", `c${i}`)).toEqual([i])
    // a read put again is the newest: it outlives reads put after it the first time
    v.put("events", "c910", ["again"], "r5-0")
    for (let i = 1_000; i < 1_089; i++) v.put("events", `c${i}`, [i], "r5-1")
    expect(v.get("events", "c910")).toEqual(["again"])
    expect(v.get("events", "c911")).toBeUndefined()
    // a mark judges only the reads of its own res-5 cell, by each read's own look (c1000 was read under look 10)
    store.observe(store.since(), 20, [["r5-1", 9]], true)
    expect(store.view(20)!.get("events", "c1000")).toEqual([1_000])
    store.observe(store.since(), 30, [["r5-1", 10]], true)
    expect(store.view(30)!.get("events", "c1000")).toBeUndefined()
    expect(store.view(30)!.get("events", "c910")).toEqual(["again"])
    expect(store.stats().held).toBeLessThanOrEqual(100)
  })

  it("keeps nothing and asks for no marks when switched off", () => {
    const store = makeHazardCellStore(KEEP_NOTHING)
    store.observe(undefined, 100, [], true)
    expect(store.since()).toBeUndefined()
    expect(store.view(100)).toBeUndefined()
  })
})

describe("ROUTE_READS_KEPT_CELLS", () => {
  const limitsFrom = (env: Record<string, string>) =>
    Effect.runPromise(
      Effect.map(RoutingConfig, (c) => hazardCellLimits(c.routeReadsKeptCells)).pipe(
        Effect.provide(RoutingConfig.layer),
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
      )
    )

  it("sizes each worker's store, full feature rows at a fifth of the cells", async () => {
    expect(await limitsFrom({})).toEqual(DEFAULT_HAZARD_CELL_LIMITS)
    expect(await limitsFrom({ ROUTE_READS_KEPT_CELLS: "40000" })).toEqual({ cells: 40_000, features: 8_000 })
  })

  it("refuses a size outside 1,000 … 1,000,000 with the setting's name", async () => {
    for (const bad of ["0", "999", "2000000", "many"]) {
      await expect(limitsFrom({ ROUTE_READS_KEPT_CELLS: bad })).rejects.toThrow(/ROUTE_READS_KEPT_CELLS/)
    }
  })
})
