import { describe, expect, it } from "vitest"
import type { WaypointRoute } from "../../../infra/network/interchangeLinks.js"
import { tollLinks } from "../../../infra/network/linkTolls.js"
import { namedJunctionLinks } from "../../../infra/network/namedJunctionLinks.js"

const road = (root: string, route: string, points: Array<[string, number, number]>): WaypointRoute => ({
  root,
  route,
  banner: null,
  region: "DE",
  points
})
// SR 1's exit 114 and US-13's waypoint naming it, 330 m apart: the network joins them by a link
const sr1 = road("de.de001", "DE1", [
  ["104", 39.2054, -75.543],
  ["114", 39.2827, -75.5896],
  ["119", 39.3301, -75.6249]
])
const us13 = road("de.us013", "US13", [
  ["CarRd", 39.2785, -75.5921],
  ["DE1(114)", 39.2818, -75.5933],
  ["SmyLeiRd", 39.2913, -75.5966]
])
const links = namedJunctionLinks([sr1, us13], (r) => r.root === "de.de001")
const row = (from_label: string, to_label: string, match = "link:de.us013>de.de001") => ({
  toll: "de1_exit114_ramp",
  match,
  from_label,
  to_label
})

describe("tolls on junction links (infra/network/linkTolls.ts)", () => {
  it("puts a ramp toll on the link between the two waypoints, and on nothing else", () => {
    expect(links).toHaveLength(1)
    const out = tollLinks(
      links,
      [sr1, us13],
      [row("DE1(114)", "114"), { toll: "other", match: "root:de.de001", from_label: "", to_label: "" }]
    )
    expect(out.map((l) => l.props.toll)).toEqual(["de1_exit114_ramp"])
    expect(out[0].coordinates).toEqual(links[0].coordinates)
    // the link is found whichever end the row names first
    expect(tollLinks(links, [sr1, us13], [row("114", "DE1(114)", "link:de.de001>de.us013")])[0].props.toll).toBe(
      "de1_exit114_ramp"
    )
  })

  it("refuses a row whose link the network does not have, or whose waypoint does not exist", () => {
    expect(() => tollLinks(links, [sr1, us13], [row("SmyLeiRd", "114")])).toThrow(
      /link the network does not have: de1_exit114_ramp/
    )
    expect(() => tollLinks(links, [sr1, us13], [row("DE1(119)", "114")])).toThrow(
      /de.us013 has no waypoint labelled DE1\(119\)/
    )
    expect(() => tollLinks(links, [sr1, us13], [row("DE1(114)", "114", "link:de.us013")])).toThrow(
      /is not link:<root>><root>/
    )
  })
})
