import { describe, expect, it } from "vitest"
import { type BarrierQuery, BarrierIndex, type StandingBarrier } from "../../../shared/routing/hazards/barrierIndex.js"

const HOUR = 3_600_000
const T0 = Date.UTC(2030, 0, 1)
const barrier = (
  id: string,
  kind: StandingBarrier["kind"],
  limit: number,
  keys: Array<string>,
  window: [number | null, number | null] = [null, null],
  properties?: Record<string, unknown>
): StandingBarrier => ({
  id,
  kind,
  warning_type:
    kind === "clearance"
      ? "bridge_clearance"
      : kind === "weight"
        ? "weight_restriction"
        : kind === "truck"
          ? "truck_restriction"
          : "traffic_event",
  source_id: id,
  name: id,
  limit,
  start: window[0],
  end: window[1],
  keys,
  distances: keys.map(() => 50),
  ...(properties ? { properties } : {})
})
const query = (over: Partial<BarrierQuery> = {}): BarrierQuery => ({
  truck: { height_m: 4.1, weight_t: 36, hazmat: false },
  clearancePadM: 0.15,
  bufferM: 100,
  fromMs: T0,
  toMs: T0 + 10 * HOUR,
  skipTemporal: false,
  ...over
})
const flat = (k: ReadonlyArray<ReadonlyArray<string>>) => k.flat().sort()

describe("what keeps a route off the barriers known ahead (BarrierIndex.keptOff)", () => {
  it("hands every request with the same truck the same pieces until the index changes", () => {
    const index = new BarrierIndex()
    index.put(barrier("low", "clearance", 3.9, ["1", "2"]))
    index.put(barrier("high", "clearance", 5.2, ["3"]))
    const a = index.keptOff(query())
    const b = index.keptOff(query({ fromMs: T0 + HOUR, toMs: T0 + 20 * HOUR }))
    expect(flat(a.keys)).toEqual(["1", "2"])
    // the same array: the engine prepares it once
    expect(b.keys[0]).toBe(a.keys[0])
    index.put(barrier("weak", "weight", 20, ["4"]))
    const c = index.keptOff(query())
    expect(c.keys[0]).not.toBe(a.keys[0])
    expect(flat(c.keys)).toEqual(["1", "2", "4"])
    // a lower truck: nothing
    expect(flat(index.keptOff(query({ truck: { height_m: 3.5, weight_t: 10, hazmat: false } })).keys)).toEqual([])
  })

  it("judges a barrier with a window of its own per request: only in force over the whole span", () => {
    const index = new BarrierIndex()
    index.put(barrier("closed-now", "closure", NaN, ["1"], [T0 - HOUR, null]))
    index.put(barrier("closing-later", "closure", NaN, ["2"], [T0 + 2 * HOUR, null]))
    index.put(barrier("lifts-soon", "closure", NaN, ["3"], [T0 - HOUR, T0 + HOUR]))
    expect(flat(index.keptOff(query()).keys)).toEqual(["1"])
    // leaving after the later closure began: it is in force all the way
    expect(flat(index.keptOff(query({ fromMs: T0 + 3 * HOUR, toMs: T0 + 9 * HOUR })).keys)).toEqual(["1", "2"])
    // leaving before the first began (a departure in the past): worked out again, not taken from the shared part
    expect(flat(index.keptOff(query({ fromMs: T0 - 2 * HOUR, toMs: T0 - 1.5 * HOUR })).keys)).toEqual([])
    expect(flat(index.keptOff(query({ skipTemporal: true })).keys)).toEqual(["1", "2", "3"])
  })

  it("keeps trucks apart that differ in any measure a barrier reads, the pad's sum alike", () => {
    const index = new BarrierIndex()
    index.put(
      barrier("tunnel", "truck", NaN, ["7"], [null, null], { restrictions: [{ type: "reduced-height", value: 4.05 }] })
    )
    // 4 m + 0.25 m pad and 4.125 m + 0.125 m pad (both 4.25 m exactly): the restriction reads the truck's own height
    expect(
      flat(index.keptOff(query({ truck: { height_m: 4, weight_t: 36, hazmat: false }, clearancePadM: 0.25 })).keys)
    ).toEqual([])
    expect(
      flat(index.keptOff(query({ truck: { height_m: 4.125, weight_t: 36, hazmat: false }, clearancePadM: 0.125 })).keys)
    ).toEqual(["7"])
  })

  it("says a route on a piece of a barrier it was to keep off passes it anyway, and not elsewhere", () => {
    const index = new BarrierIndex()
    index.put(barrier("low", "clearance", 3.9, ["1", "2"]))
    index.put(barrier("high", "clearance", 5.2, ["3"]))
    const kept = index.keptOff(query())
    expect(kept.passedOn("low", "2")).toBe(true)
    expect(kept.passedOn("low", "9")).toBe(false)
    // a barrier that does not bar this truck is never one the search was to keep off
    expect(kept.passedOn("high", "3")).toBe(false)
    expect(kept.passedOn("unknown", "1")).toBe(false)
  })

  it("finds the barriers along a route's pieces, one or several to a piece, as they are put and removed", () => {
    const index = new BarrierIndex()
    const ids = (keys: Array<string>) =>
      index
        .along(keys, query())
        .map((slot) => index.idOf(slot))
        .sort()
    index.put(barrier("a", "clearance", 3.9, ["1", "2"]))
    expect(ids(["2"])).toEqual(["a"])
    index.put(barrier("b", "clearance", 3.5, ["2", "3"]))
    index.put(barrier("c", "weight", 20, ["2"]))
    expect(ids(["2"])).toEqual(["a", "b", "c"])
    expect(ids(["1", "3"])).toEqual(["a", "b"])
    index.remove("b")
    expect(ids(["2", "3"])).toEqual(["a", "c"])
    index.remove("a")
    expect(ids(["1", "2"])).toEqual(["c"])
    // put again under the same id: its old pieces are let go
    index.put(barrier("c", "weight", 20, ["5"]))
    expect(ids(["1", "2", "3"])).toEqual([])
    expect(ids(["5"])).toEqual(["c"])
    expect(index.size).toBe(1)
  })
})
