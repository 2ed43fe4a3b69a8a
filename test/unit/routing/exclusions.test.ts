import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makeBuiltinEngine } from "../../../shared/routing/engine/builtin/BuiltinEngine.js"
import { RoadGraph } from "../../../shared/routing/engine/builtin/RoadGraph.js"
import { buildNetwork } from "../../../shared/routing/network/buildNetwork.js"
import { RoadNetwork } from "../../../shared/routing/network/NetworkFile.js"
import { FREE_ROAD, type RoadLine } from "../../../shared/routing/network/RoadLine.js"
import type { Exclusion } from "../../../shared/routing/engine/RoutingEngine.js"

// at 40°N: 0.001° of latitude is 111 m; 1° of longitude 85 km
const line = (ref: string, speed: number, coordinates: Array<[number, number]>): RoadLine => ({
  props: { ...FREE_ROAD, class: "primary", speed_kph: speed, ref },
  coordinates
})
/**
 * I-1 runs W → E as one 85 km segment; F-2 beside it, 133 m north; US-3 a slow way round through the hills; B-4 under
 * a low bridge.
 */
const lines = [
  line("I-1", 100, [
    [-100, 40],
    [-99, 40]
  ]),
  line("F-2", 90, [
    [-100, 40],
    [-99.9, 40.0012],
    [-99.1, 40.0012],
    [-99, 40]
  ]),
  line("US-3", 60, [
    [-100, 40],
    [-99.5, 40.3],
    [-99, 40]
  ]),
  // the fastest way of all, under a bridge too low for the test's truck
  {
    ...line("B-4", 130, [
      [-100, 40],
      [-99.5, 39.95],
      [-99, 40]
    ]),
    props: {
      ...FREE_ROAD,
      class: "motorway" as const,
      speed_kph: 130,
      ref: "B-4",
      max_height_m: 3.8,
      restriction_sources: { max_height_m: "test survey" }
    }
  }
]
const net = new RoadNetwork(buildNetwork(lines, { source: "t", credit: [], length_factor: 1 }))
const graph = new RoadGraph(net)
const engine = makeBuiltinEngine(net, graph)
const edgesOf = (ref: string) =>
  Array.from({ length: net.edgeCount }, (_, e) => e).filter((e) => net.props[net.edgeProp[e]].ref === ref)
/** a closure between I-1 and F-2, 67 m from each, 42 km from the nearest shape point of either */
const hazard = { lat: 40.0006, lng: -99.5 }
const truck = { height_m: 4.1, weight_t: 36, hazmat: false }
const refsOf = async (exclusions: Array<Exclusion>) => {
  const a = await Effect.runPromise(
    engine.route({
      points: [
        { lat: 40, lng: -100 },
        { lat: 40, lng: -99 }
      ],
      truck,
      avoid: { toll_road: false, ferry: false, tunnel: false },
      alternatives: 0,
      exclusions
    })
  )
  return [...new Set(a.routes[0].sections.map((s) => s.summary))]
}

describe("exclusions reach every road past a place (shared/routing/engine/builtin)", () => {
  it("finds the roads whose line passes within the radius, in the middle of a long segment", () => {
    expect(graph.edgesWithin(hazard.lat, hazard.lng, 100).sort()).toEqual([...edgesOf("I-1"), ...edgesOf("F-2")].sort())
    expect(graph.edgesWithin(hazard.lat, hazard.lng, 50)).toEqual([])
    // shape points alone see neither road there
    expect(graph.edgesNear(hazard.lat, hazard.lng, 100)).toEqual([])
  })

  it("moves a route off every road within the radius at once, not one road piece a round", async () => {
    expect(await refsOf([])).toEqual(["I-1"])
    const [i1] = edgesOf("I-1")
    // the road piece alone: the route takes the road beside it, past the same closure
    expect(await refsOf([{ ...hazard, radius_m: 0, edge_key: String(i1) }])).toEqual(["F-2"])
    // the piece and every road within the hazard buffer: the way round
    expect(await refsOf([{ ...hazard, radius_m: 100, edge_key: String(i1) }])).toEqual(["US-3"])
  })

  it("works out the limits the truck was kept from when they are read, the same with alternatives asked", async () => {
    const answer = (alternatives: number) =>
      Effect.runPromise(
        engine.route({
          points: [
            { lat: 40, lng: -100 },
            { lat: 40, lng: -99 }
          ],
          truck,
          avoid: { toll_road: false, ferry: false, tunnel: false },
          alternatives,
          exclusions: []
        })
      )
    const one = await answer(0)
    expect(Object.getOwnPropertyDescriptor(one, "limits_avoided")?.get).toBeTypeOf("function")
    expect(one.limits_avoided!.map((l) => [l.dimension, l.source])).toEqual([["height", "test survey"]])
    expect(one.limits_avoided).toBe(one.limits_avoided)
    // the alternatives' penalties, laid on the roads taken after the first search, leave them alone
    const two = await answer(1)
    expect(two.routes.length).toBe(2)
    expect(two.limits_avoided).toEqual(one.limits_avoided)
  })

  it("tells a destination walled in by barriers at once, and one on a node with another road out as reachable", () => {
    const [i1] = edgesOf("I-1")
    const [f2] = edgesOf("F-2")
    const origin = graph.snap(40, -100, 100, (e) => e === i1)!
    // on F-2 short of E: reached only along F-2
    const mid = graph.snap(40.0012, -99.1, 100, (e) => e === f2)!
    expect(mid.e).toBe(f2)
    const blockF2 = { blocked: (e: number) => e === f2, cost: (_e: number, s: number) => s }
    expect(graph.walledOff(origin, mid, blockF2)).toBe(true)
    expect(graph.path(origin, mid, blockF2)).toBeUndefined()
    // F-2's end at E is a node the other roads reach
    const east = graph.snap(40, -99, 100, (e) => e === f2)!
    expect(east.e).toBe(f2)
    expect(graph.walledOff(origin, east, blockF2)).toBe(false)
    expect(graph.path(origin, east, blockF2)).toBeDefined()
    const open = { blocked: () => false, cost: (_e: number, s: number) => s }
    expect(graph.walledOff(origin, mid, open)).toBe(false)
  })

  it("keeps barriers known ahead off every piece but one a point lies on between junctions", async () => {
    const [f2] = edgesOf("F-2")
    const every = Array.from({ length: net.edgeCount }, (_, e) => String(e))
    // from W (a junction) to a point on F-2 short of E
    const req = {
      points: [
        { lat: 40, lng: -100 },
        { lat: 40.0012, lng: -99.1 }
      ],
      truck,
      avoid: { toll_road: false, ferry: false, tunnel: false },
      alternatives: 0
    }
    // every piece but F-2's kept off: F-2 it is
    const ahead = await Effect.runPromise(
      engine.route({ ...req, exclusions: [], excluded_keys: [every.filter((k) => k !== String(f2))] })
    )
    expect(new Set(ahead.routes[0].segment_keys)).toEqual(new Set([String(f2)]))
    // F-2 kept off too: the destination lies on it, so it is driven all the same
    const all = await Effect.runPromise(engine.route({ ...req, exclusions: [], excluded_keys: [every] }))
    expect(new Set(all.routes[0].segment_keys)).toEqual(new Set([String(f2)]))
    // to E, a junction: W and E are each walled in by pieces kept off, so their walls are let through
    // (I-1, F-2 and US-3, W to E: the fastest of them), never B-4's low bridge, a limit of the road itself
    const toE = await Effect.runPromise(
      engine.route({ ...req, points: [req.points[0], { lat: 40, lng: -99 }], exclusions: [], excluded_keys: [every] })
    )
    expect(toE.routes[0].sections.map((s) => s.summary)).toEqual(["I-1"])
  })

  it("lets a point walled in by barriers known ahead through that wall only, and keeps off the rest", async () => {
    // A is a dead end 8.5 km west of W, reached only by S-0; W to E by I-1, or the slow way by US-3
    const stub = new RoadNetwork(
      buildNetwork(
        [
          line("S-0", 80, [
            [-100.1, 40],
            [-100, 40]
          ]),
          line("I-1", 100, [
            [-100, 40],
            [-99, 40]
          ]),
          line("US-3", 60, [
            [-100, 40],
            [-99.5, 40.3],
            [-99, 40]
          ])
        ],
        { source: "t", credit: [], length_factor: 1 }
      )
    )
    const stubGraph = new RoadGraph(stub)
    const stubEngine = makeBuiltinEngine(stub, stubGraph)
    const keys = (ref: string) =>
      Array.from({ length: stub.edgeCount }, (_, e) => e)
        .filter((e) => stub.props[stub.edgeProp[e]].ref === ref)
        .map(String)
    const A = { lat: 40, lng: -100.1 }
    const E = { lat: 40, lng: -99 }
    const refs = async (points: Array<{ lat: number; lng: number }>, kept: Array<string>) => {
      const a = await Effect.runPromise(
        stubEngine.route({
          points,
          truck,
          avoid: { toll_road: false, ferry: false, tunnel: false },
          alternatives: 0,
          exclusions: [],
          excluded_keys: [kept]
        })
      )
      return a.routes[0].sections.map((s) => s.summary)
    }
    expect(await refs([A, E], [])).toEqual(["S-0", "I-1"])
    // low bridges on S-0 and I-1: S-0 walls A in and is let through; I-1 has a way round
    expect(await refs([A, E], [...keys("S-0"), ...keys("I-1")])).toEqual(["S-0", "US-3"])
    // the same walled-in point as the destination
    expect(await refs([E, A], [...keys("S-0"), ...keys("I-1")])).toEqual(["US-3", "S-0"])
    // the wall as the graph finds it: S-0's piece, and none where the other point lies inside
    const a = stubGraph.snap(A.lat, A.lng, 100, () => true)!
    const e = stubGraph.snap(E.lat, E.lng, 100, () => true)!
    const s0 = new Set(keys("S-0").map(Number))
    expect(stubGraph.wallAround(a, e, (x) => s0.has(x))).toEqual([...s0])
    expect(stubGraph.wallAround(e, a, (x) => s0.has(x))).toEqual([...s0])
    expect(stubGraph.wallAround(a, e, () => false)).toBeUndefined()
  })
})
