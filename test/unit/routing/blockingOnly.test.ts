import { describe, expect, it } from "vitest"
import type { EventRow, FeatureRow } from "../../../shared/routing/hazards/hazardRows.js"
import { type HazardOptions, judgeHazards, type PlacedHazards } from "../../../shared/routing/hazards/routeHazards.js"
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

let seed = 7
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(rand() * xs.length)]
/** a window around the drive, or none, or one that has ended */
const window = () =>
  pick([
    [null, null],
    [T0 - H, null],
    [T0 - 5 * H, T0 - H],
    [T0 + 2 * H, T0 + 9 * H],
    [T0 - H, T0 + 30 * 60_000]
  ] as const).map((t) => (t === null ? null : iso(t)))

const event = (i: number): EventRow => {
  const [start, end] = window()
  return {
    id: `ev_${i}`,
    source: "src",
    source_id: `e${i}`,
    latitude: 40,
    longitude: -99.5,
    geometry: null,
    type: pick(["closure", "incident", "construction", "special_event", "weather", "advisory", "restriction", "other"]),
    sub_type: null,
    severity: pick(["minor", "moderate", "major", "critical"]),
    status: "active",
    title: `event ${i}`,
    description: "",
    affected_roads: [],
    start_time: start,
    end_time: end,
    estimated_start_time: null,
    estimated_end_time: null
  }
}

const PROPS: Record<string, () => Record<string, unknown>> = {
  bridge_clearances: () => ({ clearance_m: pick([3.9, 4.2, 4.4, 5.1]) }),
  bridges: () => ({ vertical_clearance_m: pick([3.8, 4.25, 6]) }),
  weight_restrictions: () => pick([{ weight_limit_tons: pick([20, 40, 50]) }, { max_weight_t: pick([25, 44]) }, {}]),
  truck_restrictions: () => ({
    restrictions: [
      pick([
        { type: "no-trucks" },
        { type: "reduced-height", value: pick([3.9, 4.6]) },
        { type: "reduced-weight", value: 30, unit: "tons" },
        { type: "no-hazardous-material" }
      ])
    ]
  }),
  rail_crossings: () => ({ at_grade: pick([true, false]), daily_trains: pick([2, 20]) }),
  weigh_stations: () => ({ status: pick(["open", "closed", "Open", undefined]) }),
  inspection_stations: () => ({}),
  truck_parking: () => ({ capacity: 40 }),
  cameras: () => ({})
}
const feature = (i: number): FeatureRow => {
  const [start, end] = window()
  const type = pick(Object.keys(PROPS))
  return {
    id: `ft_${i}`,
    source: "src",
    jurisdiction: "IA",
    source_id: `f${i}`,
    latitude: 40,
    longitude: -99.5,
    geometry: null,
    feature_type: type,
    name: `feature ${i}`,
    description: "",
    properties: PROPS[type](),
    start_time: start,
    end_time: end,
    estimated_start_time: null,
    estimated_end_time: null
  }
}

describe("judging only what bars the truck (a reroute round)", () => {
  it("gives exactly the blocking warnings a full judging gives, and no features, on 200 random layouts", () => {
    let blocking = 0
    for (let layout = 0; layout < 200; layout++) {
      const placed: PlacedHazards = {
        events: Array.from({ length: 12 }, (_, i) => ({ row: event(i), alongM: rand() * 100_000, segment: 0 })),
        features: Array.from({ length: 20 }, (_, i) => ({ row: feature(i), alongM: rand() * 100_000, segment: 0 }))
      }
      const o: HazardOptions = {
        bufferM: 100,
        clearancePadM: 0.15,
        departureMs: T0,
        skipTemporal: layout % 5 === 0,
        includeFeatures: ["truck_parking", "bridges"],
        truck: { height_m: pick([4.0, 4.3]), weight_t: pick([30, 40]), length_m: 20, hazmat: layout % 3 === 0 }
      }
      const full = judgeHazards(route, o, T0, placed)
      const only = judgeHazards(route, o, T0, placed, undefined, true)
      expect(only.warnings).toEqual(full.warnings.filter((w) => w.blocking))
      expect(only.features).toEqual([])
      blocking += only.warnings.length
    }
    // the layouts do hold warnings that bar the truck, and more that do not
    expect(blocking).toBeGreaterThan(200)
  })
})
