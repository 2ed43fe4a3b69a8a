import { describe, expect, it } from "vitest"
import type { WaypointRoute } from "../../../infra/network/interchangeLinks.js"
import { NAMED_LINK_MAX_M, namedJunctionLinks, namedRoutes } from "../../../infra/network/namedJunctionLinks.js"

const road = (
  root: string,
  route: string,
  points: Array<[string, number, number]>,
  banner: string | null = null
): WaypointRoute => ({ root, route, banner, region: "MA", points })
// I-95 with exit 66; US-1 meets it there, its waypoint 140 m off the freeway's
const i95 = road("ma.i095", "I-95", [
  ["65", 42.5, -71.0],
  ["66", 42.55, -71.0],
  ["67", 42.6, -71.0]
])
const us1 = road("ma.us001", "US1", [
  ["MA129", 42.55, -71.1],
  ["I-95(66)", 42.5512, -71.0012],
  ["MA62", 42.56, -70.9]
])
const freeways = new Set(["ma.i095"])
const isFreeway = (r: WaypointRoute) => freeways.has(r.root)

describe("junction links where a waypoint names a route the data does not meet there (infra/network/namedJunctionLinks.ts)", () => {
  it.each([
    ["I-95(66)", ["I-95"]],
    ["US1/9", ["US1", "US9"]],
    ["I-64/77", ["I-64", "I-77"]],
    ["NY5_E", ["NY5"]],
    ["*US63", ["US63"]],
    ["US20Bus", ["US20Bus"]],
    ["I-90(49)/NY78", ["I-90", "NY78"]],
    ["MainSt", []],
    ["+X12", []]
  ] as const)("reads the routes a label names: %s", (label, names) => {
    expect(namedRoutes(label)).toEqual(names)
  })

  it("joins the naming waypoint to the named route's nearest exit", () => {
    const links = namedJunctionLinks([i95, us1], isFreeway)
    expect(links).toHaveLength(1)
    expect(links[0].coordinates).toEqual([
      [-71.0012, 42.5512],
      [-71.0, 42.55]
    ])
    expect(links[0].props).toMatchObject({ name: "US1 / I-95 junction", toll: null, region: "MA" })
  })

  it("adds nothing where the routes share a waypoint nearby, or where the nearest waypoint is too far", () => {
    const meets = road("ma.us001", "US1", [
      ["MA129", 42.55, -71.1],
      ["I-95(66)", 42.55, -71.0],
      ["MA62", 42.56, -70.9]
    ])
    expect(namedJunctionLinks([i95, meets], isFreeway)).toEqual([])
    // about 1.3 km off: more likely another place than this junction
    const far = road("ma.us001", "US1", [
      ["MA129", 42.55, -71.1],
      ["I-95(66)", 42.5615, -71.0052],
      ["MA62", 42.56, -70.9]
    ])
    expect(NAMED_LINK_MAX_M).toBeLessThan(1300)
    expect(namedJunctionLinks([i95, far], isFreeway)).toEqual([])
  })

  it("on two surface roads, joins only where the nearest waypoint names the first road back", () => {
    const ma62 = road("ma.ma062", "MA62", [
      ["MA28", 42.55, -71.2],
      ["US1", 42.5505, -71.1003],
      ["MA38", 42.56, -71.3]
    ])
    const us1b = road("ma.us001", "US1", [
      ["MA62", 42.55, -71.1],
      ["MA129", 42.6, -71.1]
    ])
    expect(namedJunctionLinks([ma62, us1b], isFreeway)).toHaveLength(1)
    // the nearest US-1 waypoint is its junction with MA-129, not with MA-62: left alone
    const other = road("ma.us001", "US1", [
      ["MA129", 42.5502, -71.1],
      ["MA133", 42.6, -71.1]
    ])
    expect(namedJunctionLinks([ma62, other], isFreeway)).toEqual([])
  })

  it("reads a route in pieces as one: a shared waypoint with any piece is the junction", () => {
    // US-1's waypoint "MA62" is on the first piece of MA-62; the second piece passes nearer without naming US-1
    const piece1 = road("ma.ma062", "MA62", [
      ["US1", 42.55, -71.1],
      ["MA38", 42.56, -71.3]
    ])
    const piece2 = road("ma.ma062dan", "MA62", [
      ["MA35", 42.5502, -71.1001],
      ["MA128", 42.57, -70.95]
    ])
    const us1c = road("ma.us001", "US1", [
      ["MA62", 42.55, -71.1],
      ["MA129", 42.6, -71.1]
    ])
    expect(namedJunctionLinks([piece1, piece2, us1c], isFreeway)).toEqual([])
  })
})
