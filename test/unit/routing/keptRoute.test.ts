import { describe, expect, it } from "vitest"
import { departingBy, type Evaluation, judgeRoutes, type PlacedRoute } from "../../../shared/routing/plan/evaluation.js"
import type { EventRow } from "../../../shared/routing/hazards/hazardRows.js"
import { keptRoutes, renderKept } from "../../../shared/routing/saved/keptRoute.js"
import { decodeKept, encodeKept } from "../../../shared/routing/saved/keptText.js"
import type { RouteTrack } from "../../../shared/routing/engine/RoutingEngine.js"

// a straight 100 km road driven in an hour
const route: RouteTrack = {
  coordinates: [
    [-100, 40],
    [-98.826, 40]
  ],
  along_m: [0, 100_000],
  along_s: [0, 3600],
  distance_m: 100_000,
  duration_s: 3600
}
const T0 = Date.parse("2031-03-04T10:00:00Z")
const H = 3_600_000
const iso = (ms: number) => new Date(ms).toISOString()

const event = (id: string, type: string, from: number | null, to: number | null, lng: number): EventRow => ({
  id: `ev_${id}`,
  source: "kept-src",
  source_id: id,
  latitude: 40,
  longitude: lng,
  geometry: null,
  type,
  sub_type: null,
  severity: "major",
  status: "active",
  title: `${type} ${id}`,
  description: "",
  affected_roads: ["I-1"],
  start_time: from === null ? null : iso(from),
  end_time: to === null ? null : iso(to),
  estimated_start_time: null,
  estimated_end_time: null
})

const rows = [
  event("works-later", "construction", T0 + 2 * H, T0 + 30 * H, -99.5), // begins after the route is kept
  event("works-now", "construction", T0 - H, null, -99.4), // begun already
  event("crash-ending", "incident", T0 - H, T0 + 3 * H, -99.3), // ends while refetches go on
  event("crash-over", "incident", T0 - 5 * H, T0 - H, -99.2) // over before the route is kept
]
const placed: Array<PlacedRoute> = [
  {
    hazards: { events: rows.map((row) => ({ row, alongM: (row.longitude + 100) * 85_180, segment: 0 })), features: [] }
  }
]
const evaluation = (skipTemporal: boolean, departureMs = T0): Evaluation => ({
  hazards: {
    bufferM: 100,
    clearancePadM: 0.15,
    truck: { height_m: 4, weight_t: 30, hazmat: false },
    departureMs,
    skipTemporal,
    includeFeatures: []
  },
  shown: { minSeverity: "info", excludeTypes: [] }
})

describe("a saved route's kept warnings", () => {
  for (const [skip, departure] of [
    [false, T0],
    [true, T0],
    [false, T0 + 3 * H]
  ] as const) {
    it(`answer at every later refetch what judging the rows again answers (skip_temporal_filter ${skip}, leaving ${iso(departure)})`, () => {
      const kept = keptRoutes([route], evaluation(skip, departure), T0, placed)
      for (const at of [T0, T0 + H, T0 + 2.5 * H, T0 + 4 * H, T0 + 40 * H]) {
        const e = departingBy(evaluation(skip, departure), at)
        const fresh = judgeRoutes([route], e, at, placed)[0]
        const rendered = renderKept(route, e, at, kept[0], true)
        expect(rendered.warnings.map((w) => JSON.parse(w))).toEqual(fresh.warnings)
        // a refetch without the track (an alternative route): the items' own drive seconds give the same answer
        expect(renderKept(null, e, at, kept[0], false).warnings).toEqual(rendered.warnings)
        // and from the stored text
        expect(renderKept(route, e, at, decodeKept(encodeKept(kept))[0], true)).toEqual(rendered)
      }
    })
  }

  it("keep no future variant for a construction begun already, and nothing for a window already over", () => {
    const kept = keptRoutes([route], evaluation(false), T0, placed)[0]
    const ids = kept.items.map((i) => JSON.parse(i.warning.json).source_id)
    expect(ids).not.toContain("crash-over")
    expect(kept.items.filter((i) => i.future !== undefined).map((i) => JSON.parse(i.warning.json).source_id)).toEqual([
      "works-later"
    ])
    // leaving after it begins, the construction not yet begun warns as future construction until it begins
    const later = evaluation(false, T0 + 3 * H)
    const ahead = keptRoutes([route], later, T0, placed)[0]
    const before = renderKept(route, later, T0, ahead, true).warnings.map((w) => JSON.parse(w))
    expect(before.find((w) => w.source_id === "works-later")?.type).toBe("future_construction")
    const after = renderKept(route, later, T0 + 3 * H, ahead, true).warnings.map((w) => JSON.parse(w))
    expect(after.find((w) => w.source_id === "works-later")?.type).toBe("traffic_event")
  })

  it("round-trip through the stored text exactly: items with and without a future variant, open windows, features, stops", () => {
    const kept = keptRoutes([route], evaluation(false), T0, placed)
    const withStops = [
      { ...kept[0], features: ['{"type":"truck_parking","name":"Lot \\t A"}'], stops: [] },
      { items: [], features: [] },
      { ...kept[0], stops: null }
    ]
    const text = encodeKept(withStops)
    expect(decodeKept(text)).toEqual(withStops)
    expect(text.length).toBeLessThan(JSON.stringify(withStops).length)
    expect(decodeKept(encodeKept([]))).toEqual([])
    expect(() => encodeKept([{ items: [], features: ["a\tb"] }])).toThrow(/tab or newline/)
  })

  it("keeps every place to stop for a regime that counts calendar days, prunes to the suggested ones for one that does not", () => {
    // a 30 h drive on a long straight road with a lot every hour of driving
    const long: RouteTrack = {
      coordinates: [
        [-100, 40],
        [-70, 40]
      ],
      along_m: [0, 2_700_000],
      along_s: [0, 30 * 3600],
      distance_m: 2_700_000,
      duration_s: 30 * 3600
    }
    const stops = Array.from({ length: 29 }, (_, i) => ({
      id: `lot${i}`,
      type: "truck_parking" as const,
      name: `Lot ${i}`,
      alongM: (i + 1) * 90_000,
      alongS: (i + 1) * 3600,
      capacity: 20,
      unusable: false,
      geometry: { type: "Point" as const, coordinates: [-100 + (i + 1), 40] }
    }))
    const keptFor = (ruleset: "us" | "canada_south") =>
      keptRoutes([long], { ...evaluation(false), hos: { ruleset, counters: {} } }, T0, [
        { hazards: { events: [], features: [] }, stops }
      ])[0].stops!.length
    expect(keptFor("canada_south")).toBe(29)
    expect(keptFor("us")).toBeLessThan(29)
  })
})
