import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { planRoute, type PlanRequest } from "../../../shared/routing/plan/planRoute.js"
import {
  BARRIER_REFRESH_MS,
  StandingBarriers,
  standingBarriersLayer
} from "../../../shared/routing/plan/standingBarriers.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { builtinEngineLayer } from "../../../shared/routing/engine/builtin/BuiltinEngine.js"
import { buildNetwork } from "../../../shared/routing/network/buildNetwork.js"
import { encodeNetwork } from "../../../shared/routing/network/NetworkFile.js"
import { FREE_ROAD } from "../../../shared/routing/network/RoadLine.js"
import { type EngineRequest, RoutingEngine } from "../../../shared/routing/engine/RoutingEngine.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"

/*
 * Five roads side by side from A (40, -100) to B (40, -99), each bowing north through its own
 * midpoint 2.2 km from the next: R1 the fastest, R5 the slowest. Low bridges stand over R1–R4.
 * Found on the route one round at a time, three rounds move the route onto R4 and leave its
 * bridge; known ahead, one search goes by R5.
 */
const roads = [1, 2, 3, 4, 5].map((k) => ({
  coordinates: [
    [-100, 40],
    [-99.5, 40 + 0.02 * k],
    [-99, 40]
  ] as Array<[number, number]>,
  props: { ...FREE_ROAD, ref: `R${k}`, class: "primary" as const, speed_kph: 105 - 5 * k, region: "AA" }
}))
const dir = mkdtempSync(join(tmpdir(), "rd-barriers-"))
const networkFile = join(dir, "ladder.network.json.gz")
writeFileSync(
  networkFile,
  encodeNetwork(buildNetwork(roads, { source: "test ladder", credit: ["Test ladder"], length_factor: 1 }))
)

const A = { lat: 40, lng: -100 }
const B = { lat: 40, lng: -99 }
const bridge = (k: number, clearance = 3.9) =>
  feature(`low-${k}`, {
    jurisdiction: "AA",
    feature_type: "bridge_clearances",
    name: `Bridge over R${k}`,
    latitude: 40 + 0.02 * k,
    longitude: -99.5,
    properties: { min_vertical_clearance_m: clearance }
  })
const request: PlanRequest = { origin: A, destination: B, truck: { profile: "tractor", height_m: 4.1, weight_t: 36 } }

// loaded on the first ask, after beforeAll has written the bridges
const env = makeTestEnv({ routingNetworkFile: networkFile, routingPreload: false })
const calls: Array<EngineRequest> = []
/** the real engine, its requests recorded */
const recorded = Layer.effect(
  RoutingEngine,
  Effect.map(RoutingEngine, (e) => ({
    ...e,
    route: (req: EngineRequest) =>
      Effect.suspend(() => {
        calls.push(req)
        return e.route(req)
      })
  }))
).pipe(Layer.provide(builtinEngineLayer(networkFile, true)))
// pages of two rows: the load pages through more than one page, past seq 9 to 10 and on
const withIndex = ManagedRuntime.make(
  standingBarriersLayer(2).pipe(Layer.provideMerge(recorded), Layer.provideMerge(env.layer))
)
/** the same worker as if its index were not loaded yet: routes are planned by rounds alone */
const byRounds = (req: PlanRequest) =>
  withIndex.runPromise(
    Effect.provideService(planRoute(req), StandingBarriers, { current: Effect.succeed(undefined), size: () => -1 })
  )

/**
 * the worker's index once `n` of its barriers bar the request's truck now (its refresh runs every BARRIER_REFRESH_MS)
 */
const indexBarring = async (n: number) => {
  const deadline = Date.now() + 4 * BARRIER_REFRESH_MS
  for (;;) {
    const index = await withIndex.runPromise(Effect.flatMap(StandingBarriers, (s) => s.current))
    const now = Date.now()
    const barring = index?.barring({
      truck: { ...request.truck, hazmat: false },
      clearancePadM: 0.15,
      bufferM: 100,
      fromMs: now,
      toMs: now + 86_400_000,
      skipTemporal: false
    })
    if (barring?.length === n) return index!
    if (Date.now() > deadline) throw new Error(`${barring?.length ?? "no index:"} barriers bar the truck, not ${n}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

let prev = new Map()
const poll = async (records: ReadonlyArray<ReturnType<typeof feature>>) => {
  const at = new Date()
  const diff = diffFeaturePoll({ source: "bridges-src", polledAt: at, now: at, records, presentIds: [], prev })
  prev = new Map([...prev, ...diff.upserts])
  await withIndex.runPromise(applyChanges(diff.changes))
}

/** twelve high bridges off to the north, on no road: read by the load, never placed */
const far = Array.from({ length: 12 }, (_, k) =>
  feature(`far-${k}`, {
    jurisdiction: "AA",
    feature_type: "bridge_clearances",
    name: `far ${k}`,
    latitude: 45 + k * 0.1,
    longitude: -99.5,
    properties: { min_vertical_clearance_m: 3 }
  })
)

/** each test's own start: the four low bridges, or R1's raised */
const bridges = async (r1Raised: boolean) => {
  await poll([bridge(1, r1Raised ? 5.2 : 3.9), bridge(2), bridge(3), bridge(4), ...far])
  return indexBarring(r1Raised ? 3 : 4)
}

beforeAll(async () => {
  // the first load sees all of them: twelve unplaced, the four placed
  await poll([1, 2, 3, 4].map((k) => bridge(k)).concat(far))
}, 60_000)
afterAll(async () => {
  await withIndex.dispose()
  await env.cleanup()
})

const refsOf = (r: { routes: ReadonlyArray<{ sections: ReadonlyArray<{ summary: string }> }> }) => [
  ...new Set(r.routes[0].sections.map((s) => s.summary))
]

describe("barriers known ahead of a route (shared/routing/plan/standingBarriers.ts)", () => {
  it("loads every barrier through pages, and places only those beside a road", async () => {
    // as the load left it (the first refresh comes BARRIER_REFRESH_MS later)
    let index = await withIndex.runPromise(Effect.flatMap(StandingBarriers, (s) => s.current))
    for (const deadline = Date.now() + 60_000; !index && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100))
      index = await withIndex.runPromise(Effect.flatMap(StandingBarriers, (s) => s.current))
    }
    expect(index?.size).toBe(4)
    for (const k of [1, 2, 3, 4]) expect(index!.has(prev.get(`low-${k}`).id)).toBe(true)
  })

  it("keeps the route off every barrier that bars the truck in one search, where rounds leave one on it", async () => {
    await bridges(false)
    calls.length = 0
    const ahead = (await withIndex.runPromise(planRoute(request))).answer
    expect(refsOf(ahead)).toEqual(["R5"])
    expect(ahead.routes[0].warnings.filter((w) => w.severity === "critical")).toEqual([])
    // what the best route would have met, in the words its warning would have used
    expect(ahead.avoided).toEqual([
      { warning_type: "bridge_clearance", source_id: "low-1", title: "Low clearance 3.90 m: Bridge over R1" }
    ])
    // the best route, then the one kept off all four: no rounds
    expect(calls.length).toBe(2)
    expect(calls[1].excluded_keys?.flat().length).toBeGreaterThanOrEqual(4)
    expect(calls[1].exclusions).toEqual([])

    // the same request planned by rounds alone: three rounds, and the fourth bridge stays on the route
    calls.length = 0
    const rounds = (await byRounds(request)).answer
    expect(refsOf(rounds)).toEqual(["R4"])
    expect(rounds.routes[0].warnings.filter((w) => w.severity === "critical").map((w) => w.source_id)).toEqual([
      "low-4"
    ])
    expect(rounds.avoided.map((a) => a.source_id).sort()).toEqual(["low-1", "low-2", "low-3"])
    expect(calls.length).toBe(4)
  })

  it("keeps nothing off for a truck the barriers do not bar, and searches once", async () => {
    await bridges(false)
    calls.length = 0
    const low = (await withIndex.runPromise(planRoute({ ...request, truck: { ...request.truck, height_m: 3.5 } })))
      .answer
    expect(refsOf(low)).toEqual(["R1"])
    expect(low.avoided).toEqual([])
    expect(calls.length).toBe(1)
  })

  it("follows the pipeline's changes: a bridge raised, a closure opened and archived", async () => {
    await bridges(false)
    // R1's bridge rebuilt higher: the route may take R1 again
    const raised = await bridges(true)
    // still known, no longer barring
    expect(raised.has(prev.get("low-1").id)).toBe(true)
    expect(refsOf((await withIndex.runPromise(planRoute(request))).answer)).toEqual(["R1"])

    // a live closure on R1 joins the index; archived, it leaves it
    const closure = observation("closed-r1", {
      jurisdiction: "AA",
      latitude: 40.02,
      longitude: -99.5,
      type: "closure",
      severity: "critical",
      title: "R1 closed",
      start_time: "2020-01-01T00:00:00.000Z"
    })
    const other = observation("elsewhere", { jurisdiction: "AA", latitude: 41, longitude: -98 })
    const script = changeScript("closures-src", [[closure, other], [other]])
    await withIndex.runPromise(applyChanges(script.filter((c) => c.op !== "archived")))
    await indexBarring(4)
    const around = (await withIndex.runPromise(planRoute(request))).answer
    expect(refsOf(around)).toEqual(["R5"])
    expect(around.avoided).toEqual([{ warning_type: "traffic_event", source_id: "closed-r1", title: "R1 closed" }])
    await withIndex.runPromise(applyChanges(script.filter((c) => c.op === "archived")))
    await indexBarring(3)
    expect(refsOf((await withIndex.runPromise(planRoute(request))).answer)).toEqual(["R1"])
  }, 60_000)

  it("reads again only the structures whose version moved, not every row its look-back meets", async () => {
    await bridges(false)
    const refreshes = () => withIndex.runPromise(Effect.map(StandingBarriers, (s) => s.refreshes!()))
    const before = await refreshes()
    // two more looks with nothing changed: all sixteen bridges were written within the look-back
    // (60 s), and each look used to read and place them all again
    for (const deadline = Date.now() + 6 * BARRIER_REFRESH_MS; (await refreshes()).looks < before.looks + 2;) {
      if (Date.now() > deadline) throw new Error("the index did not look again")
      await new Promise((r) => setTimeout(r, 200))
    }
    expect((await refreshes()).placedAgain).toBe(before.placedAgain)
    // one bridge raised: that one alone is read and placed again
    await bridges(true)
    expect((await refreshes()).placedAgain).toBe(before.placedAgain + 1)
  }, 60_000)

  it("leaves a closure that lifts before the truck could pass to the rounds, judged at its arrival", async () => {
    await bridges(true)
    const start = Date.now() - 3_600_000
    // in force now, lifted in 30 minutes: before twice the trip and six hours have passed
    const brief = observation("brief-r1", {
      jurisdiction: "AA",
      latitude: 40.02,
      longitude: -99.5,
      type: "closure",
      severity: "critical",
      title: "R1 closed briefly",
      start_time: new Date(start).toISOString(),
      end_time: new Date(Date.now() + 1_800_000).toISOString()
    })
    const other = observation("elsewhere-2", { jurisdiction: "AA", latitude: 41, longitude: -98 })
    const script = changeScript("closures-brief", [[brief, other], [other]])
    await withIndex.runPromise(applyChanges(script.filter((c) => c.op !== "archived")))
    // known, but barring for half an hour only
    const id = (script[0] as { event_id: string }).event_id
    for (const deadline = Date.now() + 4 * BARRIER_REFRESH_MS; !(await indexBarring(3)).has(id);) {
      if (Date.now() > deadline) throw new Error("the brief closure never reached the index")
      await new Promise((r) => setTimeout(r, 200))
    }
    calls.length = 0
    const answer = (await withIndex.runPromise(planRoute(request))).answer
    // the truck reaches R1's middle within the half hour: the round moves it off there
    expect(refsOf(answer)).toEqual(["R5"])
    expect(answer.avoided.map((a) => a.source_id)).toEqual(["brief-r1"])
    // the route met no standing barrier: one round, which keeps off the standing ones too (R2–R4's bridges)
    expect(calls.length).toBe(2)
    expect(calls[1].excluded_keys?.flat().length).toBeGreaterThanOrEqual(3)
    expect(calls[1].exclusions.length).toBe(1)
    await withIndex.runPromise(applyChanges(script.filter((c) => c.op === "archived")))
  }, 60_000)
})
