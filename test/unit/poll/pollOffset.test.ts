import { describe, expect, it } from "vitest"
import { firstPollOffsetMs } from "../../../pipeline/poll/pollOffset.js"
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
