import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Candidate, FeatureRow, HazardRows } from "../../../shared/routing/hazards/hazardRows.js"
import { planStops, stopsForPlan, stretchesNeeded } from "../../../shared/routing/hos/hosStops.js"
import type { HosInput } from "../../../shared/routing/hos/rulesets.js"
import { stopCandidates } from "../../../shared/routing/hos/stopCandidates.js"
import type { RouteTrack } from "../../../shared/routing/engine/RoutingEngine.js"

/*
 * Reading the places to stop stretch by stretch must give the plan and suggestions the whole
 * route's places give. The rows here stand in for the database (cells are 1 km buckets along a
 * straight road); the reads through Postgres are test/integration/routing/routingHos.test.ts's.
 */

const KM_PER_DEG = 111.32 * Math.cos((40 * Math.PI) / 180)
const SPEED = 25 // m/s, 90 km/h

/** A straight road east along 40°N, a point every km. */
const road = (km: number): RouteTrack => {
  const coordinates: Array<[number, number]> = []
  const along_m: Array<number> = []
  const along_s: Array<number> = []
  for (let k = 0; k <= km; k++) {
    coordinates.push([-120 + k / KM_PER_DEG, 40])
    along_m.push(k * 1000)
    along_s.push((k * 1000) / SPEED)
  }
  return { coordinates, along_m, along_s, distance_m: km * 1000, duration_s: (km * 1000) / SPEED }
}

/** A seeded generator, so a failing layout can be told again. */
const seeded = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

interface Place {
  readonly id: string
  readonly km: number
  readonly offM: number
  readonly spots?: number
  readonly type: string
}

/** Rows over a list of places: a place's cell is the km it lies at; reads are counted. */
const rowsOver = (places: ReadonlyArray<Place>) => {
  const read = new Set<string>()
  const bucket = (km: number) => String(Math.floor(km))
  const cellsFrom = (fromM: number, toM: number) => {
    const out: Array<string> = []
    for (let k = Math.floor(fromM / 1000) - 2; k <= Math.floor(toM / 1000) + 2; k++) out.push(String(k))
    return out
  }
  const row = (p: Place): FeatureRow => ({
    id: p.id,
    source: "t",
    jurisdiction: "IA",
    source_id: p.id,
    feature_type: p.type,
    name: p.id,
    description: "",
    latitude: 40 + p.offM / 111_320,
    longitude: -120 + p.km / KM_PER_DEG,
    geometry: null,
    properties: p.spots === undefined ? { capacity: 20 } : { capacity: 20, available_spots: p.spots },
    start_time: null,
    end_time: null,
    estimated_start_time: null,
    estimated_end_time: null,
    last_updated: "2030-01-01T00:00:00Z"
  })
  const rows = {
    coverOf: (route: RouteTrack) => cellsFrom(0, route.distance_m),
    coverOfStretch: (_route: RouteTrack, _b: number, fromM: number, toM: number) => cellsFrom(fromM, toM),
    candidatesOf: (cells: ReadonlyArray<string>) =>
      Effect.sync(() => {
        for (const c of cells) read.add(c)
        const wanted = new Set(cells)
        return places
          .filter((p) => wanted.has(bucket(p.km)))
          .map((p): Candidate => ({
            feature_id: p.id,
            latitude: row(p).latitude,
            longitude: row(p).longitude,
            is_point: true
          }))
      }),
    featureRows: (ids: ReadonlyArray<string>) => Effect.sync(() => places.filter((p) => ids.includes(p.id)).map(row))
  }
  return { rows: rows as unknown as HazardRows, read }
}

const layout = (km: number, everyKm: number, rand: () => number): Array<Place> => {
  const out: Array<Place> = []
  const types = ["truck_parking", "truck_rest_areas", "rest_areas"]
  for (let k = everyKm * rand(), i = 0; k < km; k += everyKm * (0.3 + 1.4 * rand()), i++) {
    const r = rand()
    // some full, some out of reach of the road, a few exactly on each other
    out.push({
      id: `p${i}`,
      km: k,
      offM: (rand() - 0.5) * (r < 0.1 ? 5000 : 2800),
      type: types[i % 3],
      ...(r > 0.85 ? { spots: 0 } : r > 0.6 ? { spots: 7 } : {})
    })
    if (r < 0.05) out.push({ id: `p${i}b`, km: k, offM: 0, type: "truck_parking" })
  }
  return out
}

const COUNTERS: ReadonlyArray<HosInput> = [
  {},
  { since_break_s: 1200 },
  { drive_remaining_s: 3 * 3600, duty_remaining_s: 5 * 3600 },
  { cycle_remaining_s: 20 * 3600 },
  { sleeper_berth: "8_2" },
  { sleeper_berth: "7_3", since_break_s: 0 }
]

describe("places to stop read stretch by stretch", () => {
  it("gives the plan and the suggestions the whole route's places give, on dense, sparse and empty roads", async () => {
    const rand = seeded(7)
    let checked = 0
    for (const km of [150, 900, 2400, 4300]) {
      for (const everyKm of [4, 30, 160, 900]) {
        const route = road(km)
        const places = layout(km, everyKm, rand)
        for (const counters of COUNTERS) {
          const { rows } = rowsOver(places)
          const whole = await Effect.runPromise(stopCandidates(route, rows))
          const stretched = await Effect.runPromise(stopsForPlan(route, rows, "us", counters, 0))
          const expected = planStops(route, "us", counters, 0, whole)
          const got = planStops(route, "us", counters, 0, stretched)
          expect(got.plan, `${km} km, a place every ${everyKm} km, ${JSON.stringify(counters)}`).toEqual(expected.plan)
          expect(got.stops).toEqual(expected.stops)
          checked += expected.plan.length
        }
      }
    }
    expect(checked).toBeGreaterThan(100)
  })

  it("reads a few hours of a long route, not all of it", async () => {
    const route = road(4300)
    const { rows, read } = rowsOver(layout(4300, 8, seeded(3)))
    const stops = await Effect.runPromise(stopsForPlan(route, rows, "us", {}, 0))
    expect(planStops(route, "us", {}, 0, stops).plan.length).toBe(8)
    // 4,300 km is 47.8 h of driving with 8 stops (a break and a daily rest a day): an hour's
    // driving before each is 720 km, and a place every 8 km or so fills each hour (768 read)
    expect(read.size).toBeLessThan(4300 * 0.2)
    expect(read.size).toBeGreaterThan(720)
  })

  it("asks for an hour before each deadline first, then back to the leg's start where places are few", () => {
    const route = road(2400) // 26.7 h of driving
    const first = stretchesNeeded(route, "us", {}, 0, [], [])
    // nothing known: the plan stops at its limits (8 h, 11 h, 19 h, 22 h), an hour before each
    expect(first.map(([a, b]) => [a / 3600, b / 3600])).toEqual([
      [7, 8],
      [10, 11],
      [18, 19],
      [21, 22]
    ])
    // the first hour held nothing: two hours back from the limit, then the leg's start
    const second = stretchesNeeded(route, "us", {}, 0, [], first)
    expect(second[0].map((s) => s / 3600)).toEqual([6, 8])
    const third = stretchesNeeded(route, "us", {}, 0, [], [[6 * 3600, 8 * 3600], ...first.slice(1)])
    expect(third[0].map((s) => s / 3600)).toEqual([4, 8])
    const all = stretchesNeeded(route, "us", {}, 0, [], [[0, 8 * 3600]])
    expect(all.every(([a]) => a >= 8 * 3600)).toBe(true)
  })
})
