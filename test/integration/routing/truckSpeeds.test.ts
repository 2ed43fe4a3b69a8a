import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { urbanAreasCsv, URBAN_AREAS_FILE } from "../../../infra/network/urbanAreas.js"
import { edgeSlowdowns } from "../../../shared/routing/engine/builtin/truckSpeeds.js"
import { projectHos } from "../../../shared/routing/hos/projectHos.js"
import { metresAt } from "../../../shared/routing/engine/routeTime.js"
import { DEFAULT_MAX_SPEED_KMH, type LatLng } from "../../../shared/routing/engine/RoutingEngine.js"
import { engine, net, request, speedTables } from "../../support/bundledNetwork.js"

const at = (lat: number, lng: number): LatLng => ({ lat, lng })
const plan = (from: LatLng, to: LatLng, truck: { weight_t: number; max_speed_kmh?: number } = { weight_t: 36 }) =>
  Effect.runPromise(engine.route(request(from, to, { truck: { height_m: 4.1, hazmat: false, ...truck } }))).then(
    (a) => a.routes[0]
  )
const kmh = (r: { distance_m: number; duration_s: number }) => (r.distance_m / r.duration_s) * 3.6

/**
 * Trips held out of the tuning of the speed tables (which looked at Seattle → Miami, Denver →
 * Salt Lake City, Chicago → Toronto, Los Angeles → Phoenix, Dallas → Atlanta, New York → Los
 * Angeles, Boston → Atlanta, Denver → Dallas and Pittsburgh → Philadelphia), judged against
 * figures from outside the project: long-haul trucks average 80–100 km/h moving (ATRI's
 * operational-cost surveys put it near 55–60 mph), and a solo driver's 11-hour day covers
 * some 550–650 miles (the dispatch rule of thumb under FMCSA's 11-hour limit).
 */
const HELD_OUT: ReadonlyArray<readonly [string, LatLng, LatLng]> = [
  ["Houston → Chicago", at(29.7604, -95.3698), at(41.8781, -87.6298)],
  ["Los Angeles → Seattle", at(34.0522, -118.2437), at(47.6062, -122.3321)],
  ["Atlanta → Denver", at(33.749, -84.388), at(39.7392, -104.9903)],
  ["Jacksonville → El Paso", at(30.3322, -81.6557), at(31.7619, -106.485)],
  ["Toronto → Winnipeg", at(43.6532, -79.3832), at(49.8951, -97.1384)],
  ["Calgary → Vancouver", at(51.0447, -114.0719), at(49.2827, -123.1207)]
]

describe("truck speeds on the bundled network, against figures from outside", () => {
  it.each(HELD_OUT)(
    "%s: averages 80–100 km/h under a 105 km/h governor, and a day's drive ends 850–1,100 km out",
    async (_, a, b) => {
      const r = await plan(a, b)
      expect(kmh(r)).toBeLessThanOrEqual(DEFAULT_MAX_SPEED_KMH)
      expect(kmh(r)).toBeGreaterThanOrEqual(80)
      expect(kmh(r)).toBeLessThanOrEqual(100)
      const stops = projectHos(r.duration_s, Date.parse("2026-03-02T06:00:00Z"), "us", {})
      const dayEnd = stops.find((s) => s.reason === "drive_limit")
      if (r.duration_s > 11 * 3600) {
        const km = metresAt(r, dayEnd!.stopS) / 1000
        expect(km).toBeGreaterThanOrEqual(850)
        expect(km).toBeLessThanOrEqual(1100)
      }
    }
  )

  it("caps every section at the truck's governor, and a lighter truck climbs a pass faster than a loaded one", async () => {
    const calgary = at(51.0447, -114.0719)
    const vancouver = at(49.2827, -123.1207)
    const governed = await plan(calgary, vancouver, { weight_t: 36, max_speed_kmh: 80 })
    for (const s of governed.sections) expect(kmh(s)).toBeLessThanOrEqual(80 + 1e-6)
    // Hope → Merritt over the Coquihalla (8 %): an empty tractor against a loaded one
    const [hope, merritt] = [at(49.3858, -121.4419), at(50.1113, -120.7862)]
    const [light, loaded] = [await plan(hope, merritt, { weight_t: 15 }), await plan(hope, merritt, { weight_t: 40 })]
    expect(loaded.duration_s).toBeGreaterThan(light.duration_s * 1.1)
  })

  it("every listed grade lies on its road in the network, and the towns cover the large cities", () => {
    for (const g of speedTables.grades) {
      const one = edgeSlowdowns(net, { urbanAreas: [], grades: [g] })
      let m = 0
      for (let e = 0; e < net.edgeCount; e++) m += one.gradeShare[e] * net.edgeLengthM[e]
      expect(m / 1000, `${g.ref} ${g.name}`).toBeGreaterThan(10)
    }
    const towns = speedTables.urbanAreas.map((a) => a.name)
    for (const city of ["New York", "Chicago", "Toronto", "Los Angeles", "Montréal", "Houston"])
      expect(towns.some((t) => t.startsWith(city.slice(0, 5)))).toBe(true)
  })

  it("the towns table is what infra/network/urbanAreas.ts makes from the bundled places", () => {
    expect(readFileSync(URBAN_AREAS_FILE, "utf8")).toBe(urbanAreasCsv())
  })
})
