import fc from "fast-check"
import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * SPEC §2.3 / §8: offset pages and cursor pages return the same rows in the same order, with no
 * row lost or repeated, while new rows (matching and not) arrive between page requests.
 */
const env = makeTestEnv()
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer))
)
let call: ReturnType<typeof api>

beforeAll(async () => {
  await rt.runtime()
  const { key } = await rt.runPromise(
    createKey({ plan: "enterprise", email: "paging@example.com", rateLimitRpm: 1_000_000 })
  )
  call = api(`http://127.0.0.1:${port}/api/v1`, key)
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

let run = 0
let serial = 0

/** Inserts `matching` rows on this run's road and `other` rows that the filter must skip. */
const insert = async (road: string, matching: number, other: number) => {
  const rows = [
    ...Array.from({ length: matching }, () =>
      observation(`m-${serial++}`, { affected_roads: [road], type: "incident" })
    ),
    ...Array.from({ length: other }, () =>
      observation(`o-${serial++}`, { affected_roads: [road], type: "construction" })
    )
  ].sort(() => Math.random() - 0.5)
  if (rows.length > 0) await rt.runPromise(applyChanges(changeScript(`pg-${road}`, [rows], Date.now())))
  return rows.filter((r) => r.type === "incident").map((r) => r.source_id)
}

describe("cursor and offset paging under inserts", () => {
  it("agree page for page, and together hold every matching row exactly once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 12
        }),
        async (initial, limit, bursts) => {
          const road = `PR-${run++}`
          const expected = await insert(road, initial, 2)
          const base = `/events?road=${road}&type=incident&limit=${limit}`
          const byCursor: Array<string> = []
          const byOffset: Array<string> = []
          let cursor: string | undefined
          let offset = 0
          for (let step = 0; ; step++) {
            const c = await call(cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base)
            const o = await call(`${base}&offset=${offset}`)
            expect(c.status).toBe(200)
            expect(o.status).toBe(200)
            const cIds = c.body.data.map((e: { source_id: string }) => e.source_id)
            const oIds = o.body.data.map((e: { source_id: string }) => e.source_id)
            expect(cIds).toEqual(oIds)
            expect(c.body.has_more).toBe(o.body.has_more)
            expect(c.body.next_cursor !== undefined).toBe(c.body.has_more)
            byCursor.push(...cIds)
            byOffset.push(...oIds)
            if (!c.body.has_more) break
            cursor = c.body.next_cursor
            offset += limit
            // rows arrive between pages
            const [m, other] = bursts[step % bursts.length]
            if (step < bursts.length) expected.push(...(await insert(road, m, other)))
          }
          expect(byCursor).toEqual(byOffset)
          expect(new Set(byCursor).size).toBe(byCursor.length)
          expect([...byCursor].sort()).toEqual([...expected].sort())
        }
      ),
      { numRuns: 30 }
    )
  }, 120_000)
})
