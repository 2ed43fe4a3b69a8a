import { describe, expect, it } from "vitest"
import { switchesFor } from "../../../shared/routing/hos/countryRules.js"
import { projectHos } from "../../../shared/routing/hos/projectHos.js"
import { crossingName, readCrossings } from "../../../shared/routing/plan/borderCrossings.js"
import type { LatLng } from "../../../shared/routing/engine/RoutingEngine.js"
import { CHICAGO, request, ROUTING_DATA, route, TORONTO } from "../../support/bundledNetwork.js"

const H = 3600
const DEPART = Date.parse("2030-03-04T14:00:00Z")
const WINNIPEG: LatLng = { lat: 49.8951, lng: -97.1384 }
const CALGARY: LatLng = { lat: 51.0447, lng: -114.0719 }
const table = readCrossings(ROUTING_DATA)
const named = (r: Awaited<ReturnType<typeof route>>) =>
  (r.crossings ?? []).map((c) => {
    const [lng, lat] = r.coordinates[c.index]
    return { ...c, name: crossingName(table, lat, lng, c.road) }
  })

describe("the US–Canada border on a route (hours of service by country)", () => {
  it("names the crossing of Chicago → Toronto, where Michigan meets Ontario", async () => {
    const r = await route(request(CHICAGO, TORONTO))
    const [c, ...more] = named(r)
    expect(more).toEqual([])
    expect(c).toMatchObject({ from_region: "MI", to_region: "ON" })
    expect(c.name).toMatch(/^(Blue Water Bridge|Ambassador Bridge|Gordie Howe International Bridge) \(/)
    expect(c.along_s).toBeGreaterThan(4 * H)
    expect(c.along_s).toBeLessThan(r.duration_s - H)
    // and the other way, the same bridge
    const back = named(await route(request(TORONTO, CHICAGO)))
    expect(back.map((x) => [x.from_region, x.to_region, x.name])).toEqual([["ON", "MI", c.name]])
  })

  it("a US driver works under Canada's rules past the border: no 30-minute break there, and hours carried over", async () => {
    const r = await route(request(CHICAGO, TORONTO))
    const switches = switchesFor(r, "us")
    expect(switches).toEqual([{ atS: r.crossings![0].along_s, ruleset: "canada_south" }])
    // fresh: US rules alone want a break after 8 h of driving, in Ontario; Canada's have none
    expect(projectHos(r.duration_s, DEPART, "us", {}).map((s) => s.reason)).toEqual(["break_required"])
    expect(projectHos(r.duration_s, DEPART, "us", {}, undefined, switches)).toEqual([])
    // 6 h of driving left on the US clock (5 h used before leaving): past the border Canada's 13 h counts those 5 h
    // and the drive so far, and stops the truck two hours later than the US 11 h would, under its own rules
    const used = { drive_remaining_s: 6 * H }
    const usOnly = projectHos(r.duration_s, DEPART, "us", used)
    const byCountry = projectHos(r.duration_s, DEPART, "us", used, undefined, switches)
    expect(usOnly[0]).toMatchObject({ ruleset: "us", reason: "drive_limit", stopS: 6 * H })
    expect(r.crossings![0].along_s).toBeLessThan(6 * H)
    expect(byCountry[0]).toMatchObject({ ruleset: "canada_south", reason: "drive_limit" })
    expect(byCountry[0].stopS).toBeCloseTo(8 * H, 3)
  })

  it("a Canadian driver in the US works under the FMCSA's rules, and a trip inside Canada stays under Canada's", async () => {
    const r = await route(request(TORONTO, CHICAGO))
    const switches = switchesFor(r, "canada_south")
    expect(switches).toEqual([{ atS: r.crossings![0].along_s, ruleset: "us" }])
    const stops = projectHos(r.duration_s, DEPART, "canada_south", {}, undefined, switches)
    // 8 h of driving without a break is a US limit only: the break falls in Michigan
    expect(stops.map((s) => [s.ruleset, s.reason])).toEqual([["us", "break_required"]])
    const inside = await route(request(CALGARY, WINNIPEG))
    expect(inside.crossings).toEqual([])
    expect(switchesFor(inside, "us")).toEqual([{ atS: 0, ruleset: "canada_south" }])
    const plan = projectHos(inside.duration_s, DEPART, "us", {}, undefined, switchesFor(inside, "us"))
    expect(plan.length).toBeGreaterThan(0)
    expect(new Set(plan.map((s) => s.ruleset))).toEqual(new Set(["canada_south"]))
  })
})
