import { SqlClient } from "@effect/sql"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import type { FeatureObservation } from "../../../shared/domain/Feature.js"
import { cellsOf, parentAt5 } from "../../../shared/geo/h3cells.js"
import { hazardRows } from "../../../shared/routing/hazards/hazardRows.js"
import { type HazardCellStore, lookAtMarks, makeHazardCellStore } from "../../../shared/routing/hazards/HazardCells.js"
import { makeTestEnv } from "../../support/harness.js"
import { changeScript, feature, featureChangeScript, observation } from "../../support/changes.js"

/*
 * The API worker's store of route reads against real Postgres and the real materializer: a read
 * is served to the next route until a materialized change marks its cell, and never after.
 */

const env = makeTestEnv()
const rt = ManagedRuntime.make(env.layer)
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const LAT = 40.75
const LNG = -73.99
const CELL = cellsOf(LAT, LNG).r7
const TYPES = ["weight_restrictions"]

/** The changes of a script's i-th poll (its polls are a minute apart, in order). */
const poll = <C extends { at: string }>(changes: ReadonlyArray<C>, i: number) => {
  const ats = [...new Set(changes.map((c) => c.at))].sort()
  return changes.filter((c) => c.at === ats[i])
}

/**
 * What one route reads in the cell, as planRoute reads it: a look at the marks, then the rows through the store's
 * view.
 */
const routeRead = (store: HazardCellStore) =>
  Effect.gen(function* () {
    const xmin = yield* lookAtMarks(store)
    const rows = yield* hazardRows(TYPES, store.view(Number(xmin)))
    const { events, candidates } = yield* rows.inCells([CELL])
    const features = yield* rows.featureRows(candidates.map((c) => c.feature_id))
    return { titles: events.map((e) => e.title).sort(), features: features.map((f) => f.name).sort() }
  })

const restriction = (over: Partial<FeatureObservation> = {}) =>
  feature("wr", {
    feature_type: "weight_restrictions",
    name: "bridge posted 20 t",
    latitude: LAT,
    longitude: LNG,
    jurisdiction: "NY",
    ...over
  })

describe("routes' kept reads (HazardCells)", () => {
  it("serve the next route until a materialized change marks the cell", async () => {
    const store = makeHazardCellStore()
    const events = changeScript("hc", [
      [observation("e1")],
      [observation("e1", { title: "lane closed" })],
      [observation("e1", { title: "lane closed", status: "archived" })]
    ])
    const feats = featureChangeScript([[restriction()], [restriction({ is_active: false })], [restriction()]])
    const steps = await rt.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* applyChanges([...poll(events, 0), ...poll(feats, 0)])
        const out: Record<string, unknown> = {}
        out.first = yield* routeRead(store)
        // a look's xmin is the whole cluster's: a transaction of another test's database still
        // open may hold it below the change just written, which then counts against reads made
        // under that look (a read again, never a stale one); a later look moves past it
        for (let tries = 0; tries < 100; tries++) {
          const before = store.stats().misses
          out.second = yield* routeRead(store)
          out.secondMisses = store.stats().misses - before
          if (out.secondMisses === 0) break
          yield* Effect.sleep("50 millis")
        }
        // written past the materializer (no mark): the kept read is what the second route was served
        yield* sql`UPDATE events SET title = 'written behind the marks'`
        out.unmarked = yield* routeRead(store)
        // the materializer's change to the event marks its cell
        yield* applyChanges(poll(events, 1))
        out.changed = yield* routeRead(store)
        // the restriction deactivated, then back
        yield* applyChanges(poll(feats, 1))
        out.deactivated = yield* routeRead(store)
        yield* applyChanges(poll(feats, 2))
        out.reactivated = yield* routeRead(store)
        // the event ends (archived)
        yield* applyChanges(poll(events, 2))
        out.ended = yield* routeRead(store)
        return out
      })
    )
    expect(steps.first).toEqual({ titles: ["event e1"], features: ["bridge posted 20 t"] })
    expect(steps.second).toEqual(steps.first)
    // events, candidates and the feature row all came from the store
    expect(steps.secondMisses).toBe(0)
    expect(steps.unmarked).toEqual(steps.first)
    expect(steps.changed).toEqual({ titles: ["lane closed"], features: ["bridge posted 20 t"] })
    expect(steps.deactivated).toEqual({ titles: ["lane closed"], features: [] })
    expect(steps.reactivated).toEqual({ titles: ["lane closed"], features: ["bridge posted 20 t"] })
    expect(steps.ended).toEqual({ titles: [], features: ["bridge posted 20 t"] })
    expect(store.stats().hits).toBeGreaterThan(0)
  })

  it("a store that keeps nothing reads every route itself", async () => {
    const store = makeHazardCellStore({ cells: 0, features: 0 })
    const titles = await rt.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const a = yield* routeRead(store)
        yield* sql`UPDATE events SET title = 'written behind the marks', archived_at = NULL`
        const b = yield* routeRead(store)
        return [a.titles, b.titles]
      })
    )
    expect(titles[1]).toEqual(["written behind the marks"])
    expect(store.stats().hits).toBe(0)
  })

  it("a line's change marks the parent of every res-7 cell it lies in", async () => {
    // 30 km along a meridian whose points' own res-5 cells miss one of its res-7 cells' parents
    // (a res-7 cell near a res-5 edge lies partly outside its parent)
    const line = {
      type: "LineString",
      coordinates: [
        [-100.0, 42.0],
        [-100.0, 42.27]
      ]
    }
    const changes = featureChangeScript([
      [feature("long", { feature_type: "truck_restrictions", geometry: line, latitude: 42, longitude: -100 })]
    ])
    const [cells7, marked] = await rt.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* applyChanges(changes)
        const c7 = yield* sql<{
          cell: string
        }>`SELECT cell::text AS cell FROM feature_cells WHERE res = 7 AND feature_type = 'truck_restrictions'`
        const m = yield* sql<{ cell: string }>`SELECT cell::text AS cell FROM cell_marks`
        return [c7.map((r) => r.cell), new Set(m.map((r) => r.cell))] as const
      })
    )
    expect(cells7.length).toBeGreaterThan(10)
    expect(cells7.filter((c) => !marked.has(parentAt5(c)))).toEqual([])
  })
})
