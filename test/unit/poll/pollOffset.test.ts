import { describe, expect, it } from "vitest"
import { firstPollOffsetMs, nextPollAtMs } from "../../../pipeline/poll/pollOffset.js"
import { CA_PROVINCES, US_STATES } from "../../../shared/domain/Jurisdictions.js"

describe("first polls spread over POLL_SPREAD_S", () => {
  it("puts each source at a stable place inside the spread, and every source at 0 without one", () => {
    expect(firstPollOffsetMs("ny-511-events", 60_000)).toBe(firstPollOffsetMs("ny-511-events", 60_000))
    for (const id of ["a", "ny-511-events", "wzdx-al", ""]) {
      const o = firstPollOffsetMs(id, 60_000)
      expect(o).toBeGreaterThanOrEqual(0)
      expect(o).toBeLessThan(60_000)
      expect(firstPollOffsetMs(id, 0)).toBe(0)
    }
  })

  it("spreads a continent's catalogue evenly, ids that differ in one letter included (no tenth of the spread holds over twice its share)", () => {
    const ids = [...US_STATES, ...CA_PROVINCES].flatMap(([code]) =>
      ["wzdx", "511-events", "cameras", "rwis"].map((k) => `${k}-${code.toLowerCase()}`)
    )
    const buckets = Array.from({ length: 10 }, () => 0)
    for (const id of ids) buckets[Math.floor(firstPollOffsetMs(id, 60_000) / 6_000)]++
    const share = ids.length / 10
    for (const n of buckets) {
      expect(n).toBeLessThan(share * 2)
      expect(n).toBeGreaterThan(share / 2)
    }
  })
})

describe("later polls on each source's phase of its interval", () => {
  const interval = 60_000
  it("falls on the source's own phase, at least an interval (less a second) after the poll began", () => {
    for (const id of ["ny-511-events", "wzdx-al", "wzdx-ak"]) {
      const phase = firstPollOffsetMs(id, interval)
      for (const start of [0, 1_700_000_000_123, 1_700_000_059_999, 1_765_000_000_000]) {
        const next = nextPollAtMs(id, interval, start)
        expect(((next % interval) + interval) % interval).toBe(phase)
        expect(next).toBeGreaterThanOrEqual(start + interval - 1000)
        expect(next).toBeLessThan(start + 2 * interval - 1000)
      }
    }
  })

  it("keeps a poll that started a little late on its grid: the period stays one interval", () => {
    const id = "ca-511-wzdx"
    const first = nextPollAtMs(id, interval, 1_765_000_000_000)
    // the poll on that moment starts 300 ms late (a busy event loop)
    expect(nextPollAtMs(id, interval, first + 300)).toBe(first + interval)
    expect(nextPollAtMs(id, interval, first)).toBe(first + interval)
  })

  it("spreads a continent's sources over the interval (no tenth of it holds over twice its share)", () => {
    const ids = [...US_STATES, ...CA_PROVINCES].flatMap(([code]) =>
      ["wzdx", "511-events", "cameras", "rwis"].map((k) => `${k}-${code.toLowerCase()}`)
    )
    const buckets = Array.from({ length: 10 }, () => 0)
    // every source polled at the same moment (a first round all at once): its next polls spread
    for (const id of ids)
      buckets[Math.floor(((nextPollAtMs(id, interval, 1_765_000_000_000) % interval) / interval) * 10)]++
    for (const n of buckets) {
      expect(n).toBeLessThan((ids.length / 10) * 2)
      expect(n).toBeGreaterThan(ids.length / 10 / 2)
    }
  })
})
