import { SqlClient } from "@effect/sql"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { makeTestEnv } from "../../support/harness.js"
import { feature, featureChangeScript } from "../../support/changes.js"

const env = makeTestEnv()
const rt = ManagedRuntime.make(env.layer)
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const tables = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`SELECT id, source_id, is_active, name, version, last_updated, created_at, properties FROM features ORDER BY id`,
    sql`SELECT change_id, feature_id, change_type, changed_at FROM feature_history ORDER BY change_id, change_type`,
    sql`SELECT res, count(*)::int AS n FROM feature_cells GROUP BY res ORDER BY res`
  ])
)
const reset = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`TRUNCATE features, feature_history, feature_cells`)

const line = {
  type: "LineString",
  coordinates: [
    [-123.0, 49.0],
    [-123.0, 49.05]
  ]
}
const polls = [
  [feature("a"), feature("b"), feature("c", { geometry: line, feature_type: "weight_restrictions" })],
  [
    feature("a", { is_active: false }),
    feature("b", { name: "renamed" }),
    feature("c", { geometry: line, feature_type: "weight_restrictions" })
  ],
  [feature("a", { is_active: false }), feature("c", { geometry: line, feature_type: "weight_restrictions" })],
  [feature("a"), feature("c", { geometry: line, feature_type: "weight_restrictions" })]
]

describe("feature materializer", () => {
  it("writes lifecycle history and follows the newest content, twice or in any order", async () => {
    const changes = featureChangeScript(polls)
    const [direct, again, shuffled] = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        yield* applyChanges(changes)
        const a = yield* tables
        yield* applyChanges(changes)
        const b = yield* tables
        yield* reset
        for (const c of [...changes].reverse()) yield* applyChanges([c])
        return [a, b, yield* tables] as const
      })
    )
    expect(again).toEqual(direct)
    expect(shuffled).toEqual(direct)
    const [rows, history, cells] = direct
    const byId = Object.fromEntries(rows.map((r) => [r.source_id, r]))
    expect(byId.a.is_active).toBe(true)
    expect(byId.b).toMatchObject({ is_active: false, name: "renamed" })
    expect(history.map((h) => h.change_type).sort()).toEqual([
      "created",
      "created",
      "created",
      "deactivated",
      "deactivated",
      "reactivated"
    ])
    // the 5.5 km line is indexed by the cells along it at every stored resolution
    expect(cells.map((c) => c.res)).toEqual([3, 5, 7])
    expect(cells.find((c) => c.res === 7)!.n).toBeGreaterThanOrEqual(3)
  })
})

describe("observation stamps", () => {
  it("writes a new observed_at without moving last_updated; a new count moves it", async () => {
    const lot = (available: number, observed: string) =>
      feature("lot", {
        feature_type: "truck_parking",
        properties: { capacity: 10, available_spots: available, observed_at: observed }
      })
    const changes = featureChangeScript([
      [lot(4, "2026-11-01T00:00:00Z")],
      [lot(4, "2026-11-01T00:01:00Z")],
      [lot(3, "2026-11-01T00:02:00Z")]
    ])
    expect(changes.map((c) => c.op)).toEqual(["created", "updated", "updated"])
    const rows = await rt.runPromise(
      Effect.gen(function* () {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        const read = sql<{
          last_updated: string
          properties: Record<string, unknown>
        }>`SELECT last_updated, properties FROM features WHERE source_id = 'lot'`
        const out = []
        for (const c of changes) {
          yield* applyChanges([c])
          out.push((yield* read)[0])
        }
        return out
      })
    )
    expect(rows[1].last_updated).toBe(rows[0].last_updated)
    expect(rows[1].properties.observed_at).toBe("2026-11-01T00:01:00Z")
    expect(Date.parse(rows[2].last_updated) - Date.parse(rows[0].last_updated)).toBe(120_000)
  })
})
