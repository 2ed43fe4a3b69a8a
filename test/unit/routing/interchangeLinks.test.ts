import { describe, expect, it } from "vitest"
import {
  END_LINK_MAX_M,
  interchangeLinks,
  LINK_MAX_M,
  LINK_SPEED_KPH,
  type WaypointRoute
} from "../../../infra/network/interchangeLinks.js"
import { buildNetwork } from "../../../shared/routing/network/buildNetwork.js"
import { RoadNetwork } from "../../../shared/routing/network/NetworkFile.js"
import { FREE_ROAD, type RoadLine } from "../../../shared/routing/network/RoadLine.js"
import { RoadGraph } from "../../../shared/routing/engine/builtin/RoadGraph.js"

// about 111 m per 0.001° of latitude; at 43°N about 81 m per 0.001° of longitude
const road = (root: string, route: string, points: Array<[string, number, number]>): WaypointRoute => ({
  root,
  route,
  region: "NY",
  points
})
/**
 * A toll road running east and a freeway running north whose interchange waypoints sit 300–500 m apart (the Thruway
 * at I-81 in Syracuse).
 */
const thruway = road("ny.nyst", "NYST", [
  ["35", 43.0, -76.1],
  ["36", 43.0, -76.2],
  ["37", 43.0, -76.3]
])
const i81 = road("ny.i081", "I-81", [
  ["24", 42.9, -76.204],
  ["25A", 43.004, -76.196],
  ["26", 43.1, -76.19]
])

const lengthM = (l: RoadLine) => {
  const net = new RoadNetwork(buildNetwork([l], { source: "t", credit: [], length_factor: 1 }))
  return net.edgeLengthM[0]
}

describe("interchange links where freeways cross without a shared waypoint (infra/network/interchangeLinks.ts)", () => {
  it("joins two crossing freeways at their nearest visible waypoints, through the crossing, timed as a slow ramp", () => {
    const links = interchangeLinks([thruway, i81])
    expect(links).toHaveLength(1)
    const [l] = links
    expect(l.coordinates[0]).toEqual([-76.2, 43.0]) // the Thruway's exit 36
    expect(l.coordinates[2]).toEqual([-76.196, 43.004]) // I-81's exit 25A
    expect(l.props).toMatchObject({
      class: "motorway",
      speed_kph: LINK_SPEED_KPH,
      toll: null,
      name: "NYST / I-81 interchange"
    })
    expect(lengthM(l)).toBeGreaterThan(400)
    expect(lengthM(l)).toBeLessThan(800)
  })

  it("lets a route cross from one freeway onto the other once the network is built", () => {
    const lines: Array<RoadLine> = [thruway, i81].map((r) => ({
      props: { ...FREE_ROAD, class: "motorway", speed_kph: 100, ref: r.route },
      coordinates: r.points.map((p) => [p[2], p[1]] as const)
    }))
    const without = new RoadGraph(new RoadNetwork(buildNetwork(lines, { source: "t", credit: [], length_factor: 1 })))
    const withLinks = new RoadGraph(
      new RoadNetwork(
        buildNetwork([...lines, ...interchangeLinks([thruway, i81])], { source: "t", credit: [], length_factor: 1 })
      )
    )
    const rules = { blocked: () => false, cost: (_e: number, s: number) => s }
    for (const [g, connected] of [
      [without, false],
      [withLinks, true]
    ] as const) {
      const from = g.snap(43.0, -76.3, 100, () => true)
      const to = g.snap(43.1, -76.19, 100, () => true)
      // the graph keeps only its largest connected part for snapping: without the link one end is off it
      const path = from && to ? g.path(from, to, rules) : undefined
      expect(path !== undefined).toBe(connected)
    }
  })

  it("adds nothing where the routes already share a waypoint near the crossing, or where a waypoint is too far", () => {
    const meets = road("ny.i081", "I-81", [
      ["24", 42.9, -76.2],
      ["NYST", 43.0, -76.2],
      ["26", 43.1, -76.2]
    ])
    expect(interchangeLinks([thruway, meets])).toEqual([])
    // hidden shaping points are no exit: the nearest visible waypoint is 5 km away
    const far = road("ny.i081", "I-81", [
      ["24", 42.95, -76.25],
      ["+X1", 43.003, -76.25],
      ["26", 43.05, -76.25]
    ])
    const thruwayNoExit = road("ny.nyst", "NYST", [
      ["35", 43.0, -76.1],
      ["+X2", 43.0, -76.25],
      ["37", 43.0, -76.4]
    ])
    expect(LINK_MAX_M).toBeLessThan(5000)
    expect(interchangeLinks([thruwayNoExit, far])).toEqual([])
  })

  it("joins a freeway that ends short of another (I-376 at the Turnpike's exit 57), but not a route's border point", () => {
    const turnpike = road("pa.patp", "PATP", [
      ["56", 40.5, -79.7],
      ["57", 40.436, -79.749],
      ["67", 40.3, -79.8]
    ])
    const spur = road("pa.i376", "I-376", [
      ["84", 40.44, -79.9],
      ["85", 40.4388, -79.7567]
    ])
    const links = interchangeLinks([turnpike, spur])
    expect(links).toHaveLength(1)
    expect(links[0].coordinates).toEqual([
      [-79.7567, 40.4388],
      [-79.749, 40.436]
    ])
    expect(links[0].props.name).toBe("I-376 / PATP interchange")
    // the same end labelled as a state line goes on in the next state's file: not an interchange
    const border = road("pa.i376", "I-376", [
      ["84", 40.44, -79.9],
      ["PA/OH", 40.4388, -79.7567]
    ])
    expect(interchangeLinks([turnpike, border])).toEqual([])
    // …unless the other is the same road, whose two files disagree at the line
    const ohio = road("oh.i076", "I-76", [
      ["OH/PA", 40.4388, -79.7567],
      ["1", 40.4, -79.85]
    ])
    const pa = road("pa.i076", "I-76", [
      ["56", 40.5, -79.7],
      ["57", 40.436, -79.749],
      ["67", 40.3, -79.8]
    ])
    expect(interchangeLinks([pa, ohio]).map((l) => l.coordinates)).toEqual([
      [
        [-79.7567, 40.4388],
        [-79.749, 40.436]
      ]
    ])
    expect(END_LINK_MAX_M).toBe(1000)
  })
})
