import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ChildProcess } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey } from "../../../infra/admin/keys.js"
import { Redis } from "../../../shared/db/Redis.js"
import { api } from "../../support/http.js"
import { freePort, startProcess } from "../../support/processes.js"
import { E, routingProcessEnv, routingWorld, W } from "../../support/routingWorld.js"
import { waitFor } from "../../support/wait.js"

/** The monthly routing bucket and the trial's daily cap, counted in Redis (SPEC §8). */
const world = routingWorld()
const children: Array<ChildProcess> = []
const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  world.rt.runPromise(Effect.flatMap(SqlClient.SqlClient, f) as Effect.Effect<A>)
beforeAll(async () => {
  await world.start()
  // a bucket of 5 for this file's enterprise customers, set before any key is used
  await sql((s) => s`UPDATE plans SET monthly_routing_quota = 5 WHERE code = 'enterprise'`)
})
afterAll(async () => {
  for (const c of children) c.kill("SIGKILL")
  await world.stop()
})

const truck = { profile: "tractor", weight_t: 30, height_m: 4.0 }
const json = (body: unknown) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body)
})
let customers = 0
const enterprise = async () => {
  const made = await world.rt.runPromise(createKey({ plan: "enterprise", email: `quota-${++customers}@example.com` }))
  return { call: api(world.base, made.key), customerId: made.customerId }
}
const left = (r: { headers: Headers }) => Number(r.headers.get("x-routing-quota-remaining"))

describe("routing quota", () => {
  it("takes one call per route and two for toll_alternative, none for a refetch or a failed route, and refuses with routing_quota_exhausted", async () => {
    const { call } = await enterprise()
    const one = await call("/routing/route", json({ origin: W, destination: E, truck }))
    expect(one.status).toBe(200)
    expect(one.headers.get("x-routing-quota-limit")).toBe("5")
    expect(left(one)).toBe(4)
    const reset = Number(one.headers.get("x-routing-quota-reset"))
    expect(reset).toBeGreaterThan(0)
    expect(reset).toBeLessThanOrEqual(31 * 86400)
    expect(one.headers.get("x-routing-daily-limit")).toBeNull()
    // refetching the saved route is free, and shows what is left
    const refetch = await call(`/routing/route/saved/${one.body.route_id}`)
    expect(left(refetch)).toBe(4)
    expect(left(await call(`/routing/route/saved/${one.body.route_id}/mileage.csv`))).toBe(4)
    // a route that is not there answers 404, without the quota
    const missing = await call("/routing/route/saved/rte_not_there")
    expect(missing.status).toBe(404)
    expect(missing.headers.get("x-routing-quota-remaining")).toBeNull()
    // a route that cannot be made gives its call back
    const nowhere = await call("/routing/route", json({ origin: W, destination: { lat: 10, lng: 10 }, truck }))
    expect(nowhere.status).toBe(422)
    expect(left(await call(`/routing/route/saved/${one.body.route_id}`))).toBe(4)
    const two = await call("/routing/route", json({ origin: W, destination: E, truck, include: ["toll_alternative"] }))
    expect(two.status).toBe(200)
    expect(left(two)).toBe(2)
    expect(left(await call("/routing/route", json({ origin: W, destination: E, truck })))).toBe(1)
    // two calls needed, one left: refused, and nothing taken
    const short = await call(
      "/routing/route",
      json({ origin: W, destination: E, truck, include: ["toll_alternative"] })
    )
    expect(short.status).toBe(403)
    expect(short.body.code).toBe("routing_quota_exhausted")
    expect(short.body.error).toContain("needs 2 routing calls and 1 of the plan's 5 this month are left")
    expect(short.body.docs_url).toBe("/docs/plans#routing_quota_exhausted")
    expect(left(short)).toBe(1)
    expect((await call("/routing/route", json({ origin: W, destination: E, truck }))).status).toBe(200)
    const empty = await call("/routing/route", json({ origin: W, destination: E, truck }))
    expect(empty.status).toBe(403)
    expect(empty.body.code).toBe("routing_quota_exhausted")
    expect(left(empty)).toBe(0)
    // the saved routes are still free to read
    expect((await call(`/routing/route/saved/${one.body.route_id}`)).status).toBe(200)
  })

  it("spends top-up packs first in, first out once the month's bucket cannot pay, and gives a failed route's calls back to its packs", async () => {
    const { call, customerId } = await enterprise()
    for (let i = 0; i < 5; i++)
      expect((await call("/routing/route", json({ origin: W, destination: E, truck }))).status).toBe(200)
    // the newer pack is inserted first, so id order is not grant order
    await sql(
      (s) =>
        s`INSERT INTO routing_packs (customer_id, calls, granted_at) VALUES (${customerId}, 3, '2026-02-01T00:00:00Z'), (${customerId}, 2, '2026-01-01T00:00:00Z')`
    )
    const packs = () =>
      sql(
        (s) => s<{ granted: string; used: number }>`
      SELECT to_char(granted_at, 'YYYY-MM') AS granted, used FROM routing_packs WHERE customer_id = ${customerId} ORDER BY granted_at`
      )
    const one = await call("/routing/route", json({ origin: W, destination: E, truck }))
    expect(one.status).toBe(200)
    expect(one.headers.get("x-routing-packs-remaining")).toBe("4")
    expect(await packs()).toEqual([
      { granted: "2026-01", used: 1 },
      { granted: "2026-02", used: 0 }
    ])
    // two calls: the older pack's last one, then the newer pack's first
    expect(
      (await call("/routing/route", json({ origin: W, destination: E, truck, include: ["toll_alternative"] }))).status
    ).toBe(200)
    expect(await packs()).toEqual([
      { granted: "2026-01", used: 2 },
      { granted: "2026-02", used: 1 }
    ])
    expect((await call("/routing/route", json({ origin: W, destination: { lat: 10, lng: 10 }, truck }))).status).toBe(
      422
    )
    expect(await packs()).toEqual([
      { granted: "2026-01", used: 2 },
      { granted: "2026-02", used: 1 }
    ])
    // the month's bucket is not touched by pack calls
    const [month] = await sql(
      (s) =>
        s<{ calls: number }>`SELECT calls FROM routing_usage WHERE customer_id = ${customerId} AND length(period) = 7`
    )
    expect(month.calls).toBe(5)
    for (let i = 0; i < 2; i++)
      expect((await call("/routing/route", json({ origin: W, destination: E, truck }))).status).toBe(200)
    const spent = await call("/routing/route", json({ origin: W, destination: E, truck }))
    expect(spent.status).toBe(403)
    expect(spent.body).toMatchObject({ code: "routing_quota_exhausted" })
    expect(spent.body.error).toMatch(/no top-up pack/)
  })

  it("plans a batch one call per route: a failed route is not charged, the routes after the quota ran out are refused one by one, each planned one is saved", async () => {
    const { call, customerId } = await enterprise()
    const far = { lat: 10, lng: 10 }
    const batch = await call(
      "/routing/route/batch",
      json({
        routes: [
          { origin: W, destination: E, truck, customer_route_id: "truck-1" },
          { origin: W, destination: far, truck, customer_route_id: "truck-2" },
          { origin: E, destination: W, truck, include: ["toll_alternative"] },
          { origin: W, destination: E, truck: { ...truck, hos: { ruleset: "us", drive_remaining_s: 0 } } },
          { origin: E, destination: W, truck, customer_route_id: "truck-5" },
          { origin: W, destination: E, truck, customer_route_id: "truck-6" }
        ]
      })
    )
    expect(batch.status).toBe(200)
    const d = batch.body.data as Array<Record<string, any>>
    expect(d.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5])
    // 1 + 0 (given back) + 2 (toll_alternative) + 1 + 1 spend the month's 5: the last is refused
    expect(d.map((x) => x.status)).toEqual([200, 422, 200, 200, 200, 403])
    expect(d[0]).toMatchObject({
      customer_route_id: "truck-1",
      hazard_count: expect.any(Number),
      critical_count: expect.any(Number),
      avoided_count: expect.any(Number)
    })
    expect(d[0].summary.distance_m).toBeGreaterThan(80_000)
    expect(d[1]).toMatchObject({ customer_route_id: "truck-2", docs_url: "/docs/routing" })
    expect(d[1].route_id).toBeUndefined()
    expect(d[1].error).toContain("destination")
    // out of hours at the start: its rest comes first
    expect(d[3].hos_stops).toBeGreaterThanOrEqual(1)
    expect(d[4].customer_route_id).toBe("truck-5")
    expect(d[5]).toMatchObject({
      code: "routing_quota_exhausted",
      customer_route_id: "truck-6",
      docs_url: "/docs/plans#routing_quota_exhausted"
    })
    expect(d[5].route_id).toBeUndefined()
    expect(batch.body).toMatchObject({ count: 6, succeeded: 4, failed: 2, calls: 5 })
    expect(left(batch)).toBe(0)
    const [usage] = await sql(
      (s) =>
        s<{ calls: number }>`SELECT calls FROM routing_usage WHERE customer_id = ${customerId} AND length(period) = 7`
    )
    expect(usage.calls).toBe(5)
    // each planned route is whole at its saved address, free to read
    for (const i of [0, 2, 3, 4]) {
      const saved = await call(`/routing/route/saved/${d[i].route_id}`)
      expect(saved.status).toBe(200)
      expect(saved.body.hazard_count).toBe(d[i].hazard_count)
      expect(saved.body.routes[0].summary.distance_m).toBe(d[i].summary.distance_m)
    }
    expect((await call(`/routing/route/saved/${d[0].route_id}`)).body.customer_route_id).toBe("truck-1")
    expect(left(await call(`/routing/route/saved/${d[0].route_id}`))).toBe(0)
  })

  it("refuses a batch that is empty, too long or holds a malformed route, whole, with the route's position in the error", async () => {
    const { call } = await enterprise()
    const empty = await call("/routing/route/batch", json({ routes: [] }))
    expect(empty.status).toBe(400)
    const long = await call(
      "/routing/route/batch",
      json({ routes: Array.from({ length: 101 }, () => ({ origin: W, destination: E, truck })) })
    )
    expect(long.status).toBe(400)
    expect(long.body.error).toContain("100")
    const bad = await call(
      "/routing/route/batch",
      json({
        routes: [
          { origin: W, destination: E, truck },
          { origin: W, destination: E, truck: { ...truck, height_m: 60 } }
        ]
      })
    )
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/routes.*1.*height_m/s)
    // nothing was planned or charged
    expect(left(await call("/routing/route", json({ origin: W, destination: E, truck })))).toBe(4)
  })

  it("caps the Free trial at 5 calls a day, and keeps toll_alternative for paid plans", async () => {
    const free = api(world.base, world.keys.free)
    const paid = await free("/routing/route", json({ origin: W, destination: E, truck, include: ["toll_alternative"] }))
    expect(paid.status).toBe(403)
    expect(paid.body.code).toBe("plan_truck")
    for (let i = 1; i <= 5; i++) {
      const r = await free("/routing/route", json({ origin: W, destination: E, truck }))
      expect(r.status).toBe(200)
      expect(r.headers.get("x-routing-daily-limit")).toBe("5")
      expect(Number(r.headers.get("x-routing-daily-remaining"))).toBe(5 - i)
      expect(left(r)).toBe(30 - i)
    }
    const sixth = await free("/routing/route", json({ origin: W, destination: E, truck }))
    expect(sixth.status).toBe(403)
    expect(sixth.body.code).toBe("routing_daily_cap")
    expect(left(sixth)).toBe(25)
  })

  it("keeps counting from Postgres when Redis loses its counters", async () => {
    const { call, customerId } = await enterprise()
    await call("/routing/route", json({ origin: W, destination: E, truck }))
    expect(left(await call("/routing/route", json({ origin: W, destination: E, truck })))).toBe(3)
    // as after a Redis restart without persistence
    await world.rt.runPromise(
      Effect.flatMap(Redis, (r) =>
        r.use("wipe", async (c) => {
          const keys = await c.keys(r.key("rq", String(customerId), "*"))
          expect(keys.length).toBe(1)
          await c.del(keys)
        })
      )
    )
    expect(left(await call("/routing/route", json({ origin: W, destination: E, truck })))).toBe(2)
  })

  it("counts atomically across two API processes", async () => {
    const ports = await Promise.all([0, 1].map(() => freePort()))
    for (const port of ports) startProcess(world.env, "api", children, { ...routingProcessEnv, PORT: String(port) })
    await waitFor(
      async () =>
        (
          await Promise.all(
            ports.map((p) =>
              fetch(`http://127.0.0.1:${p}/api/v1/health`).then(
                (r) => r.ok,
                () => false
              )
            )
          )
        ).every(Boolean),
      60_000,
      200
    )
    // a starting process seeds the plans again: set the small bucket after
    await sql((s) => s`UPDATE plans SET monthly_routing_quota = 5 WHERE code = 'enterprise'`)
    const { key, customerId } = await world.rt.runPromise(
      createKey({ plan: "enterprise", email: "two-processes@example.com" })
    )
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        api(`http://127.0.0.1:${ports[i % 2]}/api/v1`, key)(
          "/routing/route",
          json({ origin: W, destination: E, truck })
        )
      )
    )
    expect(answers.filter((a) => a.status === 200).length).toBe(5)
    expect(answers.filter((a) => a.status === 403).map((a) => a.body.code)).toEqual(
      Array(11).fill("routing_quota_exhausted")
    )
    // both processes answered some of each
    expect(
      new Set(answers.filter((a) => a.status === 200).map((a) => a.headers.get("x-routing-quota-remaining")))
    ).toEqual(new Set(["0", "1", "2", "3", "4"]))
    const [usage] = await sql(
      (s) => s<{ calls: number }>`SELECT calls FROM routing_usage WHERE customer_id = ${customerId}`
    )
    expect(usage.calls).toBe(5)
  }, 90_000)
})
