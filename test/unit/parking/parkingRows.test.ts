import { describe, expect, it } from "vitest"
import { parkingRows } from "../../../pipeline/stages/analytics/parkingReadings.js"
import type { FeatureChange } from "../../../shared/domain/Change.js"
import { feature } from "../../support/changes.js"

/** A feature change of a lot as the differ writes it, `minutes` after noon. */
const change = (minutes: number, properties: Record<string, unknown>, over: Partial<FeatureChange> = {}) =>
  ({
    kind: "feature",
    op: "updated",
    feature_id: "ft_1",
    at: new Date(Date.parse("2026-07-10T12:00:00Z") + minutes * 60_000).toISOString(),
    keys: { jurisdiction: "IL", feature_type: "truck_parking" },
    feature: feature("IL0001", { feature_type: "truck_parking", jurisdiction: "IL", properties }),
    ...over
  }) as unknown as FeatureChange

describe("truck-parking readings from feature changes", () => {
  it("keeps trusted counts and LOW, once per repeat within five minutes, a change always", () => {
    const rows = parkingRows([
      change(0, { available: 5, capacity: 20, trend: "filling" }),
      change(1, { available: 5 }),
      change(2, { availability_text: "LOW" }),
      change(3, { availability_text: "LOW" }),
      change(9, { availability_text: "LOW" })
    ])
    expect(rows.map((r) => [r.at.slice(11, 16), r.available, r.low])).toEqual([
      ["12:00", 5, false],
      ["12:02", null, true],
      ["12:09", null, true]
    ])
    expect(rows[0]).toMatchObject({ site: "IL:IL0001", capacity: 20, trend: "FILLING" })
  })

  it("reads nothing from an untrusted count, a stale reading, a deactivation, another feature type or a bad number", () => {
    expect(
      parkingRows([
        change(0, { unverified_available_spots: 4 }),
        change(1, { available: 7, stale: true }),
        change(2, { available: 7 }, { op: "deactivated" }),
        change(3, { available: 7 }, { keys: { jurisdiction: "IL", feature_type: "cameras" } }),
        change(4, { available: -3 }),
        change(5, { available: 2.5 }),
        change(6, { available: "12" }),
        change(7, { availability_text: "Unknown" })
      ])
    ).toEqual([])
  })
})
