import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { exitStretches, planningSpeed, readSpeedTables } from "../../../infra/network/travelMapping.js"
import { buildNetwork } from "../../../shared/routing/network/buildNetwork.js"
import { RoadNetwork } from "../../../shared/routing/network/NetworkFile.js"
import { FREE_ROAD, type RoadClass, type RoadProps } from "../../../shared/routing/network/RoadLine.js"

const t = readSpeedTables(fileURLToPath(new URL("../../../shared/routing/data/tables", import.meta.url)))
const limits = t.limits

describe("planning speeds per state or province and class (shared/routing/data/tables)", () => {
  it.each([
    // region, class, expected km/h: the share of speeds.csv times the posted truck limit
    ["PA", "motorway", 70 * 1.609344 * 0.95], // Turnpike and Interstates: 70 mph for trucks
    ["CA", "motorway", 55 * 1.609344 * 0.95], // California: 55 mph for every truck, freeways included
    ["WA", "trunk", 60 * 1.609344 * 0.95], // Washington: 60 mph for heavy trucks everywhere
    ["PA", "trunk", 55 * 1.609344 * 0.95], // US-30 over the Alleghenies: a 55 mph highway
    ["TX", "primary", 70 * 1.609344 * 0.9],
    ["ON", "motorway", 100 * 0.95], // the 400-series at 100 km/h
    ["SK", "secondary", 100 * 0.8]
  ] as const)("%s %s", (region, cls, kph) => {
    expect(planningSpeed(t, region, cls)).toBeCloseTo(kph, 1)
  })

  it("falls back to the class's own figure for a region without a row, and times ferries alike everywhere", () => {
    expect(planningSpeed(t, "NU", "motorway")).toBe(95)
    expect(planningSpeed(t, null, "trunk")).toBe(80)
    expect(planningSpeed(t, "BC", "ferry")).toBe(15)
  })

  it("has a row, with both limits, for every state, DC and every province and territory with roads on the network", () => {
    const regions = [
      "AL",
      "AK",
      "AZ",
      "AR",
      "CA",
      "CO",
      "CT",
      "DE",
      "DC",
      "FL",
      "GA",
      "HI",
      "ID",
      "IL",
      "IN",
      "IA",
      "KS",
      "KY",
      "LA",
      "ME",
      "MD",
      "MA",
      "MI",
      "MN",
      "MS",
      "MO",
      "MT",
      "NE",
      "NV",
      "NH",
      "NJ",
      "NM",
      "NY",
      "NC",
      "ND",
      "OH",
      "OK",
      "OR",
      "PA",
      "RI",
      "SC",
      "SD",
      "TN",
      "TX",
      "UT",
      "VT",
      "VA",
      "WA",
      "WV",
      "WI",
      "WY",
      "AB",
      "BC",
      "MB",
      "NB",
      "NL",
      "NS",
      "ON",
      "PE",
      "QC",
      "SK",
      "YT",
      "NT"
    ]
    for (const r of regions) {
      const l = limits.get(r)
      expect(l, r).toBeDefined()
      expect(l!.freeway_kph, r).toBeGreaterThanOrEqual(l!.highway_kph)
      expect(l!.highway_kph, r).toBeGreaterThan(0)
    }
  })
})

describe("the junction delay", () => {
  const road = (cls: RoadClass): RoadProps => ({ ...FREE_ROAD, ref: cls, class: cls, speed_kph: 72 })
  // a T: a trunk road west → east through a junction J, a motorway leaving J north, a trunk stub south of E
  const lines = [
    {
      coordinates: [
        [0, 0],
        [0.1, 0]
      ] as Array<[number, number]>,
      props: road("trunk")
    },
    {
      coordinates: [
        [0.1, 0],
        [0.2, 0]
      ] as Array<[number, number]>,
      props: road("trunk")
    },
    {
      coordinates: [
        [0.1, 0],
        [0.1, 0.1]
      ] as Array<[number, number]>,
      props: road("motorway")
    }
  ]
  const net = (delay: number | undefined) =>
    new RoadNetwork(
      buildNetwork(lines, {
        source: "t",
        credit: [],
        length_factor: 1,
        ...(delay === undefined ? {} : { junction_delay_s: delay })
      })
    )

  it("charges half the delay to each non-motorway piece at a junction end, none to motorways or to networks without one", () => {
    const plain = net(undefined)
    const delayed = net(20)
    for (let e = 0; e < plain.edgeCount; e++) {
      const cls = plain.props[plain.edgeProp[e]].class
      const extra = delayed.edgeSeconds[e] - plain.edgeSeconds[e]
      // each trunk piece has one end at J (three pieces meet) and one at a dead end
      expect(extra, cls).toBeCloseTo(cls === "motorway" ? 0 : 10, 6)
    }
  })
})

describe("stretches between numbered exits are freeways, whatever the route's system", () => {
  it("reads DE-1 as Travel Mapping labels it: at-grade junctions by road name, the turnpike by exit number", () => {
    // eight segments: DE1B→DE1A_N, DE1A_N→+X1→DE36 (two, a hidden point between), DE36→79, 79→+X1B→83 (two), 83→86,
    // 86→OldBeaRd
    const labels = ["DE1B", "DE1A_N", "+X1", "DE36", "79", "+X1B", "83", "86", "OldBeaRd"]
    expect(exitStretches(labels)).toEqual([false, false, false, false, true, true, true, false])
  })

  it("takes exit letters and old labels (`*`), not grid roads whose letter is a direction", () => {
    expect(exitStretches(["14A", "14B", "*15", "16"])).toEqual([true, true, true])
    // Manitoba's and Utah's grid roads: Road 42N, 1300 South
    expect(exitStretches(["42N", "38N", "1300S", "12"])).toEqual([false, false, false])
    expect(exitStretches(["+X1", "12"])).toEqual([false])
  })
})
