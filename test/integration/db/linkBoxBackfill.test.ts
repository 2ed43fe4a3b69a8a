import { SqlClient } from "@effect/sql"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { wzdxFeed } from "../../../infra/simulator/payloads/wzdx.js"
import { wzdx } from "../../../pipeline/sources/wzdx.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import linkBoxMigration from "../../../shared/db/migrations/0028_event_link_box.js"
import linkBoxSourceMigration from "../../../shared/db/migrations/0029_link_box_source.js"
import { shapeBox } from "../../../shared/geo/shapeBox.js"
import { decodeOk } from "../../support/adapterSuite.js"
import { changeScript } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"

/**
 * The migration that gives events their shape box fills it in for the active events a database
 * already holds (a deployment upgrading), and builds the index linking searches; the next indexes
 * the box with its source.
 */
const env = makeTestEnv()
const rt = ManagedRuntime.make(env.layer)
const run = <A, E>(e: Effect.Effect<A, E, any>) => rt.runPromise(e as Effect.Effect<A, E, never>)

beforeAll(async () => {
  await rt.runtime()
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

describe("the shape box migration", () => {
  it("gives every active event the box of its shape, as the materializer writes it", async () => {
    const records = decodeOk(wzdx, wzdxFeed(0)).records
    await run(applyChanges(changeScript("backfill-wzdx", [records])))
    const boxes = () =>
      run(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ source_id: string; box: string | null }>`
          SELECT source_id, link_box::text AS box FROM events WHERE source = 'backfill-wzdx' ORDER BY source_id`
        )
      )
    const written = await boxes()
    expect(written.length).toBe(records.length)
    expect(written.every((r) => r.box !== null)).toBe(true)
    // as a database from before the column: then the migration
    await run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER TABLE events DROP COLUMN link_box`))
    await run(linkBoxMigration)
    const filled = await boxes()
    expect(filled).toEqual(written)
    for (const r of records) {
      const [w, s, e, n] = shapeBox(r.geometry, r.latitude, r.longitude)
      const box = filled.find((f) => f.source_id === r.source_id)!.box!
      // Postgres writes a box as (upper right),(lower left)
      const nums = box.match(/-?[\d.e-]+/g)!.map(Number)
      expect(nums[0]).toBeCloseTo(e, 9)
      expect(nums[1]).toBeCloseTo(n, 9)
      expect(nums[2]).toBeCloseTo(w, 9)
      expect(nums[3]).toBeCloseTo(s, 9)
    }
    const indexes = () =>
      run(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ indexname: string }>`
          SELECT indexname FROM pg_indexes WHERE indexname LIKE 'events_link_box%' ORDER BY indexname`
        )
      ).then((r) => r.map((x) => x.indexname))
    expect(await indexes()).toEqual(["events_link_box"])
    // then the box indexed with its source, in place of the box alone
    await run(linkBoxSourceMigration)
    expect(await indexes()).toEqual(["events_link_box_source"])
  })

  it("finds another source's report near a feed's own dense cluster through the box and source index", async () => {
    const plan = await run(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`
            return yield* sql<{ "QUERY PLAN": string }>`
              EXPLAIN SELECT EXISTS (SELECT 1 FROM events WHERE status = 'active'
                AND link_box && box(point(-100, 40), point(-90, 45)) AND source <> 'backfill-wzdx')`
          })
        )
      )
    )
    expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(
      /Index Only Scan using events_link_box_source|Index Scan using events_link_box_source/
    )
  })
})
