import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { planSeeds } from "../../../infra/seed/plans.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/** Every plan-gate 403 of SPEC §7 with the full §2.7 body, on an API with a portal configured. */
const PORTAL = "https://portal.example.com/"
const env = makeTestEnv({ portalUrl: PORTAL })
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer))
)
const keys: Record<string, string> = {}
const call = (plan: string) => (path: string) => api(`http://127.0.0.1:${port}/api/v1`, keys[plan])(path)

const DAY = 86_400_000
beforeAll(async () => {
  await rt.runtime()
  // an event that has ended, one long active, and one first seen a moment ago
  const past = Date.now() - 2 * DAY
  await rt.runPromise(
    applyChanges(changeScript("gates", [[observation("ended"), observation("old")], [observation("old")]], past))
  )
  await rt.runPromise(applyChanges(changeScript("fresh-src", [[observation("fresh")]], Date.now())))
  const at = new Date(past)
  const { changes } = diffFeaturePoll({
    source: "gates-f",
    polledAt: at,
    now: at,
    prev: new Map(),
    presentIds: [],
    records: [feature("on", { jurisdiction: "NY" }), feature("off", { jurisdiction: "NY", is_active: false })]
  })
  await rt.runPromise(applyChanges(changes))
  const justNow = new Date()
  await rt.runPromise(
    applyChanges(
      diffFeaturePoll({
        source: "gates-new",
        polledAt: justNow,
        now: justNow,
        prev: new Map(),
        presentIds: [],
        records: [feature("new-cam", { jurisdiction: "NY" })]
      }).changes
    )
  )
  for (const plan of ["free", "starter", "pro", "enterprise"]) {
    keys[plan] = (await rt.runPromise(createKey({ plan, email: `${plan}@gates.example.com` }))).key
  }
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const eventId = (sourceId: string) =>
  rt
    .runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ id: string }>`SELECT id FROM events WHERE source_id = ${sourceId}`
      )
    )
    .then((r) => r[0].id)

const expectGate = (r: { status: number; body: any }, code: string, plan: string, planName: string) => {
  expect(r.status).toBe(403)
  expect(r.body).toEqual({
    error: expect.any(String),
    code,
    docs_url: `/docs/plans#${code}`,
    plan,
    plan_name: planName,
    upgrade_url: `https://portal.example.com/billing/upgrade?plan=${plan}&gate=${code}`
  })
}

describe("plan gates (SPEC §7) with the §2.7 body", () => {
  it("plan_jurisdiction, plan_batch_size, plan_geojson on Free", async () => {
    expectGate(await call("free")("/events"), "plan_jurisdiction", "free", "Free")
    expectGate(await call("free")("/events?jurisdiction=NY,NJ"), "plan_jurisdiction", "free", "Free")
    const ids = Array.from({ length: 11 }, (_, i) => `ev_${i}`).join(",")
    expectGate(await call("free")(`/events?ids=${ids}`), "plan_batch_size", "free", "Free")
    expectGate(await call("free")("/events/geojson?jurisdiction=NY"), "plan_geojson", "free", "Free")
  })

  it("plan_event_status and plan_archived_event on a plan limited to active events", async () => {
    expectGate(await call("free")("/events?jurisdiction=NY&status=archived"), "plan_event_status", "free", "Free")
    expectGate(
      await call("free")("/events?jurisdiction=NY&status=active,archived"),
      "plan_event_status",
      "free",
      "Free"
    )
    const ended = await eventId("ended")
    expectGate(await call("free")(`/events/${ended}`), "plan_archived_event", "free", "Free")
    expectGate(await call("free")(`/events?ids=${ended}`), "plan_archived_event", "free", "Free")
    // Starter may look at ended events
    expect((await call("starter")(`/events/${ended}`)).body.status).toBe("archived")
    expect((await call("starter")("/events?status=archived")).body.data.map((e: any) => e.source_id)).toEqual(["ended"])
  })

  it("plan_event_time_range when a request reaches back past the plan's history", async () => {
    const old = new Date(Date.now() - 40 * DAY).toISOString().slice(0, 10)
    expectGate(await call("starter")(`/events?updated_after=${old}`), "plan_event_time_range", "starter", "Starter")
    expectGate(await call("starter")(`/events?updated_before=${old}`), "plan_event_time_range", "starter", "Starter")
    const recent = new Date(Date.now() - 10 * DAY).toISOString()
    const ok = await call("starter")(`/events?updated_after=${recent}`)
    expect(ok.status).toBe(200)
    expect(ok.body.data.map((e: any) => e.source_id).sort()).toEqual(["fresh", "old"])
    expect((await call("enterprise")(`/events?updated_after=2000-01-01`)).status).toBe(200)
    expect((await call("enterprise")("/events?updated_after=yesterday")).status).toBe(400)
  })

  it("plan_inactive_features, and a Free list shows active features only", async () => {
    expectGate(
      await call("free")("/features?type=cameras&jurisdiction=NY&active=false"),
      "plan_inactive_features",
      "free",
      "Free"
    )
    const free = await call("free")("/features?type=cameras&jurisdiction=NY")
    expect(free.body.data.map((f: any) => f.source_id)).toEqual(["on"])
    const pro = await call("pro")("/features?type=cameras&jurisdiction=NY")
    expect(pro.body.data.map((f: any) => f.source_id).sort()).toEqual(["new-cam", "off", "on"])
  })

  it("plan_analytics below Pro", async () => {
    expectGate(
      await call("starter")(`/analytics/history/${await eventId("old")}`),
      "plan_analytics",
      "starter",
      "Starter"
    )
  })

  it("trial_expired and subscription_expired carry the same body", async () => {
    const trial = (await rt.runPromise(createKey({ plan: "free", email: "t@gates.example.com" }))).key
    const sub = (await rt.runPromise(createKey({ plan: "starter", email: "s@gates.example.com" }))).key
    await rt.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.all([
          sql`UPDATE customers SET trial_ends_at = ${new Date(Date.now() - 60_000).toISOString()} WHERE email = 't@gates.example.com'`,
          sql`UPDATE customers SET subscription_ends_at = ${new Date(Date.now() - 60_000).toISOString()} WHERE email = 's@gates.example.com'`
        ])
      )
    )
    const base = `http://127.0.0.1:${port}/api/v1`
    expectGate(await api(base, trial)("/events?jurisdiction=NY"), "trial_expired", "free", "Free")
    expectGate(await api(base, sub)("/events"), "subscription_expired", "starter", "Starter")
  })
})

describe("data_delay_sec", () => {
  it("delays features the same way: the camera first seen a moment ago is not on the Free list yet", async () => {
    expect(
      (await call("free")("/features?type=cameras&jurisdiction=NY")).body.data.map((f: any) => f.source_id)
    ).toEqual(["on"])
    expect(
      (await call("starter")("/features?type=cameras&jurisdiction=NY&active=true")).body.data
        .map((f: any) => f.source_id)
        .sort()
    ).toEqual(["new-cam", "on"])
  })

  it("a Free key sees an event only once it is older than the plan's delay; Starter at once", async () => {
    const free = (await call("free")("/events?jurisdiction=NY")).body.data.map((e: any) => e.source_id).sort()
    expect(free).toEqual(["old"])
    const starter = (await call("starter")("/events?jurisdiction=NY")).body.data.map((e: any) => e.source_id).sort()
    expect(starter).toEqual(["fresh", "old"])
    // once the delay has passed, Free sees it too
    await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE events SET created_at = ${new Date(Date.now() - 301_000).toISOString()} WHERE source_id = 'fresh'`
      )
    )
    const later = (await call("free")("/events?jurisdiction=NY")).body.data.map((e: any) => e.source_id).sort()
    expect(later).toEqual(["fresh", "old"])
  })
})

describe("the plan catalogue and the caller's account", () => {
  it("GET /plans (no key) lists the four plans with every §2.9 field and the documented limits", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/plans`)
    const plans = await res.json()
    expect(plans.map((p: any) => p.code)).toEqual(["free", "starter", "pro", "enterprise"])
    for (const p of plans) {
      for (const field of [
        "id",
        "code",
        "description",
        "is_active",
        "allow_analytics",
        "allow_geojson",
        "allow_truck_data",
        "allow_webhooks",
        "data_delay_sec",
        "data_unit_price",
        "features",
        "is_contact_sales"
      ]) {
        expect(p, `${p.code}.${field}`).toHaveProperty(field)
      }
      const seed = planSeeds.find((s) => s.code === p.code)!
      for (const [k, v] of Object.entries(seed)) expect(p[k], `${p.code}.${k}`).toEqual(v)
    }
    const free = plans[0]
    expect(free).toMatchObject({
      daily_request_limit: 1000,
      requires_jurisdiction: true,
      trial_days: 14,
      data_delay_sec: 300
    })
    expect(plans.find((p: any) => p.code === "enterprise")).toMatchObject({
      data_unit_price: 0,
      is_contact_sales: true
    })
  })

  it("GET /account shows the caller's customer, key (never its hash) and plan", async () => {
    const r = await call("free")("/account")
    expect(r.status).toBe(200)
    expect(r.body.customer).toMatchObject({
      email: "free@gates.example.com",
      subscription_status: "none",
      is_active: true
    })
    expect(Date.parse(r.body.customer.trial_ends_at)).toBeGreaterThan(Date.now() + 13 * DAY)
    expect(r.body.key).toMatchObject({
      key_prefix: keys.free.slice(0, 12),
      owner_email: "free@gates.example.com",
      rate_limit_rpm: 30,
      allowed_origins: []
    })
    expect(r.body.plan.code).toBe("free")
    expect(JSON.stringify(r.body)).not.toContain(keys.free)
    expect(JSON.stringify(r.body)).not.toMatch(/key_hash/)
  })
})
