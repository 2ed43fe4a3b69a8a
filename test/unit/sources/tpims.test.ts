import { describe, expect, it } from "vitest"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { tpims } from "../../../pipeline/sources/tpims.js"
import {
  adapterSuite,
  ctx,
  decodeOk,
  ownFixture,
  readJson,
  SHARED_UPSTREAM,
  sharedAvailable,
  sharedNote
} from "../../support/adapterSuite.js"

sharedNote()
const real = (state: string) => () => ({
  static: readJson(`${SHARED_UPSTREAM}/tpims/maasto/static_${state}_2026-08-08.json`),
  dynamic: readJson(`${SHARED_UPSTREAM}/tpims/maasto/dynamic_${state}_2026-07-15.json`)
})
adapterSuite(tpims, "MAASTO Illinois static + dynamic", real("IL"), {
  records: 51,
  rejected: 0,
  skip: !sharedAvailable
})
adapterSuite(tpims, "MAASTO Kentucky static + dynamic", real("KY"), {
  records: 13,
  rejected: 0,
  skip: !sharedAvailable
})

describe.skipIf(!sharedAvailable)(
  "tpims over the real Illinois and Kentucky feeds: untrusted and placeholder figures are never numbers",
  () => {
    it("gives no available_spots for any site its feed marks trustData false, and no capacity of 0", () => {
      let untrusted = 0
      for (const state of ["IL", "KY"]) {
        const payload = real(state)() as { dynamic: Array<{ siteId: string; trustData?: boolean }> }
        const distrusted = new Set(payload.dynamic.filter((d) => d.trustData === false).map((d) => d.siteId))
        for (const r of decodeOk(tpims, payload).records) {
          expect(r.properties.capacity === undefined || (r.properties.capacity as number) > 0).toBe(true)
          if (!distrusted.has(r.source_id)) continue
          untrusted++
          for (const k of ["available", "available_spots", "occupancy_pct", "availability_text"])
            expect(r.properties).not.toHaveProperty(k)
        }
      }
      expect(untrusted).toBe(48) // 43 Illinois + 5 Kentucky sites are marked untrusted in these captures
    })
  }
)

describe("tpims: absent is never zero", () => {
  const [rest, full, low, unknown, untrusted, placeholder, dynamicCapacity, untrustedLow] = decodeOk(
    tpims,
    ownFixture("tpims/static_dynamic.json")
  ).records

  it("publishes a numeric count, with occupancy, and keeps 0 as a real 'full'", () => {
    expect(rest.properties).toMatchObject({
      capacity: 40,
      available: 12,
      available_spots: 12,
      occupancy_pct: 70,
      open: true,
      trend: "steady",
      observed_at: "2026-11-01T12:00:00.000Z",
      amenities: ["Restroom", "Vending machine"],
      ownership: "public",
      milepost: 100
    })
    expect(full.properties).toMatchObject({ capacity: 20, available: 0, available_spots: 0, occupancy_pct: 100 })
  })

  it("gives text availability as text, and no number", () => {
    expect(low.properties.availability_text).toBe("LOW")
    expect(low.properties).not.toHaveProperty("available_spots")
    expect(low.is_active).toBe(false) // the site reports itself closed
    expect(low.direction).toBe("both")
  })

  it("publishes no availability keys when the feed says Unknown or has no capacity", () => {
    for (const k of ["available", "available_spots", "availability_text", "occupancy_pct", "capacity"])
      expect(unknown.properties).not.toHaveProperty(k)
  })

  it("publishes no count for a reading marked trustData false; the figure travels as unverified", () => {
    for (const k of ["available", "available_spots", "occupancy_pct", "availability_text"])
      expect(untrusted.properties).not.toHaveProperty(k)
    expect(untrusted.properties).toMatchObject({ capacity: 50, unverified_available_spots: 25, trust_data: false })
    expect(untrustedLow.properties).not.toHaveProperty("availability_text")
    expect(untrustedLow.properties).toMatchObject({ unverified_availability_text: "LOW", trust_data: false })
  })

  it("treats capacity 0 as the placeholder it is: no capacity, and a dynamic capacity wins over a static 0", () => {
    for (const k of ["capacity", "available_spots", "occupancy_pct"])
      expect(placeholder.properties).not.toHaveProperty(k)
    expect(dynamicCapacity.properties).toMatchObject({ capacity: 17, available_spots: 5, occupancy_pct: 71 })
  })

  it("takes the state from the site, the name without its list number", () => {
    expect(rest).toMatchObject({
      jurisdiction: "IN",
      name: "I-70 EB @ mile 100 Rest Area",
      feature_type: "truck_parking",
      road_name: "I-70",
      direction: "eastbound"
    })
    expect(full.jurisdiction).toBe(ctx.jurisdiction)
  })

  it("sees a change of availability even when the static record is unchanged", () => {
    const payload = ownFixture("tpims/static_dynamic.json") as { dynamic: Array<Record<string, unknown>> }
    const d1 = decodeOk(tpims, payload)
    const first = diffFeaturePoll({
      source: "t",
      polledAt: ctx.polledAt,
      now: ctx.polledAt,
      records: d1.records,
      rawHashes: d1.rawHashes,
      presentIds: [],
      prev: new Map()
    })
    payload.dynamic[0].reportedAvailable = "3"
    const prev = new Map(first.upserts)
    const previousRaw = new Map([...prev].flatMap(([k, e]) => (e.r ? [[k, e.r] as const] : [])))
    const d2 = decodeOk(tpims, payload, { previousRaw })
    expect(d2.records.map((r) => r.source_id)).toEqual(["FX00070IS0001000E70REST"])
    const later = new Date(ctx.polledAt.getTime() + 60_000)
    const second = diffFeaturePoll({
      source: "t",
      polledAt: later,
      now: later,
      records: d2.records,
      rawHashes: d2.rawHashes,
      presentIds: d2.unchanged,
      prev
    })
    expect(second.changes.map((c) => [c.op, c.feature?.properties.available_spots])).toEqual([["updated", 3]])
  })
})

describe("tpims: a stale reading is no current count", () => {
  const site = (id: string) => ({
    siteId: id,
    name: `Site ${id}`,
    relevantHighway: "I-39",
    referencePost: 85,
    location: { latitude: 41.5, longitude: -89.1, state: "IL" },
    capacity: 40
  })
  const payload = {
    static: [site("fresh"), site("old")],
    dynamic: [
      { siteId: "fresh", timeStamp: "2026-07-15T12:00:00Z", reportedAvailable: "12", trustData: true, open: true },
      // observed eight months before the feed's own time
      { siteId: "old", timeStamp: "2025-11-15T12:00:00Z", reportedAvailable: "30", trustData: true, open: true }
    ]
  }
  it("publishes no figure for a reading more than an hour older than the feed's newest, keeps its time and says it is stale", () => {
    const [fresh, old] = decodeOk(tpims, payload).records
    expect(fresh.properties).toMatchObject({ available_spots: 12, observed_at: "2026-07-15T12:00:00.000Z" })
    expect(fresh.properties).not.toHaveProperty("stale")
    expect(old.properties).toEqual({
      capacity: 40,
      milepost: 85,
      open: true,
      observed_at: "2025-11-15T12:00:00.000Z",
      stale: true
    })
    expect(old.description).toBe("I-39, mile 85")
  })
  it("a reading within the hour is current", () => {
    const near = {
      ...payload,
      dynamic: [payload.dynamic[0], { ...payload.dynamic[1], timeStamp: "2026-07-15T11:05:00Z" }]
    }
    expect(decodeOk(tpims, near).records[1]!.properties).toMatchObject({ available_spots: 30 })
  })
})
