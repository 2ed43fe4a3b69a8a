import { SqlClient } from "@effect/sql"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { migrate } from "../../../infra/db/BaseLive.js"
import { MIGRATIONS } from "../../../shared/db/migrate.js"
import { makeTestEnv } from "../../support/harness.js"

const env = makeTestEnv()
const rt = ManagedRuntime.make(env.layer)
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const q = <A extends object>(text: string) =>
  rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text)))

describe("migrations and seed data", () => {
  it("holds 50 states and DC, 13 provinces and territories, WZDx codes, federal and regional codes", async () => {
    const [counts] = await q<Record<string, number>>(`
      SELECT count(*) FILTER (WHERE country = 'US' AND scope = 'state' AND code ~ '^[A-Z]{2}$')::int AS us,
             count(*) FILTER (WHERE country = 'CA' AND scope = 'state' AND code ~ '^[A-Z]{2}$')::int AS ca,
             count(*) FILTER (WHERE code LIKE 'WZDX\\_%' AND code NOT LIKE 'WZDX\\_CWZ\\_%')::int AS wzdx,
             count(*) FILTER (WHERE code LIKE 'WZDX\\_CWZ\\_%')::int AS cwz,
             count(*) FILTER (WHERE scope = 'federal')::int AS federal,
             count(*) FILTER (WHERE scope = 'regional')::int AS regional
      FROM jurisdictions`)
    expect(counts).toMatchObject({ us: 51, ca: 13, wzdx: 51, cwz: 1 })
    expect(counts.federal).toBeGreaterThanOrEqual(1)
    expect(counts.regional).toBeGreaterThanOrEqual(1)
  })

  it("groups each state or province with its primary code first", async () => {
    const groups = await q<{ id: string; primary_jurisdiction_code: string; members: Array<string> }>(`
      SELECT g.id, g.primary_jurisdiction_code,
             array_agg(j.code ORDER BY j.code <> g.primary_jurisdiction_code, j.member_order, j.code) AS members
      FROM jurisdiction_groups g JOIN jurisdictions j ON j.group_id = g.id GROUP BY g.id`)
    expect(groups).toHaveLength(64)
    const ny = groups.find((g) => g.id === "us-ny")!
    expect(ny.members).toEqual(["NY", "WZDX_NY", "NYC"])
    expect(groups.find((g) => g.id === "ca-bc")!.members[0]).toBe("BC")
    for (const g of groups) expect(g.members[0]).toBe(g.primary_jurisdiction_code)
  })

  it("seeds the four plans", async () => {
    const plans = await q<{ code: string }>(`SELECT code FROM plans ORDER BY id`)
    expect(plans.map((p) => p.code)).toEqual(["free", "starter", "pro", "enterprise"])
  })

  it("is idempotent: running migrations and seeds again changes nothing", async () => {
    const before = await q(
      `SELECT (SELECT count(*) FROM jurisdictions) j, (SELECT count(*) FROM jurisdiction_groups) g, (SELECT count(*) FROM plans) p, (SELECT count(*) FROM effect_sql_migrations) m`
    )
    await rt.runPromise(Effect.all([migrate, migrate], { concurrency: 2 }))
    const after = await q(
      `SELECT (SELECT count(*) FROM jurisdictions) j, (SELECT count(*) FROM jurisdiction_groups) g, (SELECT count(*) FROM plans) p, (SELECT count(*) FROM effect_sql_migrations) m`
    )
    expect(after).toEqual(before)
  })
})

describe("migrations from several processes at once", () => {
  it("migrate a fresh database once, with every starter succeeding", async () => {
    const fresh = makeTestEnv()
    try {
      // three separate pools, as three processes starting together would have
      const starts = await Promise.allSettled(
        [1, 2, 3].map(() => Effect.runPromise(Effect.provide(Effect.void, fresh.layer)))
      )
      expect(starts.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"])
      const check = ManagedRuntime.make(fresh.layer)
      const [row] = await check.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{
              m: number
              j: number
            }>`SELECT (SELECT count(*) FROM effect_sql_migrations)::int AS m, (SELECT count(*) FROM jurisdictions)::int AS j`
        )
      )
      await check.dispose()
      expect(row.m).toBe(Object.keys(MIGRATIONS).length)
      expect(row.j).toBe(124)
    } finally {
      await fresh.cleanup()
    }
  })
})
