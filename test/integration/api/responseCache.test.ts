import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { createClient } from "redis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * The shared response cache over real HTTP, real Postgres and real Redis Pub/Sub:
 * every change goes through the materializer's own write, which announces what moved.
 */
const env = makeTestEnv({ responseCache: true })
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer))
)
const keys: Record<string, string> = {}
const call =
  (who: string) =>
  (path: string, init: RequestInit = {}) =>
    api(`http://127.0.0.1:${port}/api/v1`, keys[who])(path, init)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const DAY = 86_400_000

/** Asks until the answer passes `seen` (at most 3 s); the time it took from the call. */
const untilSeen = async (ask: () => Promise<{ body: any }>, seen: (body: any) => boolean) => {
  const t0 = performance.now()
  while (performance.now() - t0 < 3000) {
    if (seen((await ask()).body)) return performance.now() - t0
    await sleep(20)
  }
  return Infinity
}
// far from the other NY reports: a link between reports reaches answers in every jurisdiction
const ALBANY = { latitude: 42.65, longitude: -73.75, affected_roads: ["I-90"] }
/**
 * Outcomes served from a kept answer: a late invalidation from another test's change (a link
 * between reports reaches every event answer) may turn a hit into a stale serve of the same answer.
 */
const KEPT = ["HIT", "STALE"]

/** Asks twice: an answer is kept from the second time its question is asked. */
const warm = async (who: string, path: string, init: RequestInit = {}) => {
  await call(who)(path, init)
  return call(who)(path, init)
}
const ids = (body: any): Array<string> => body.data.map((e: { source_id: string }) => e.source_id)

beforeAll(async () => {
  await rt.runtime()
  await rt.runPromise(
    applyChanges(changeScript("cache-ny", [[observation("ny1"), observation("ny2")]], Date.now() - 2 * DAY))
  )
  await rt.runPromise(
    applyChanges(
      changeScript(
        "cache-nj",
        [[observation("nj1", { jurisdiction: "NJ", latitude: 40.2, longitude: -74.5 })]],
        Date.now() - 2 * DAY
      )
    )
  )
  for (const [who, plan] of [
    ["ent", "enterprise"],
    ["ent2", "enterprise"],
    ["pro", "pro"],
    ["free", "free"],
    ["slow", "enterprise"]
  ] as const) {
    keys[who] = (await rt.runPromise(createKey({ plan, email: `${who}@cache.example.com` }))).key
  }
  await rt.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.all([
        sql`UPDATE api_keys SET allowed_origins = ARRAY['https://a.example'] WHERE customer_id = (SELECT id FROM customers WHERE email = 'ent2@cache.example.com')`,
        sql`UPDATE api_keys SET rate_limit_rpm = 2 WHERE customer_id = (SELECT id FROM customers WHERE email = 'slow@cache.example.com')`
      ])
    )
  )
  // the feed confirms its subscription with a probe; until then every answer is computed
  for (let i = 0; i < 100 && (await call("ent")("/events?jurisdiction=NY")).headers.get("x-cache") === "BYPASS"; i++)
    await sleep(50)
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

describe("shared answers", () => {
  it("answers an identical question from the cache, with the same ETag, and 304 to If-None-Match", async () => {
    const first = await warm("ent", "/events?jurisdiction=NJ&limit=5")
    const second = await call("ent")("/events?limit=5&jurisdiction=NJ")
    expect(first.status).toBe(200)
    expect(ids(first.body)).toEqual(["nj1"])
    expect(KEPT).toContain(second.headers.get("x-cache"))
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"))
    expect(second.body).toEqual(first.body)
    expect(first.headers.get("cache-control")).toBe("private, no-cache")
    const etag = first.headers.get("etag")!
    expect(etag).toMatch(/^"[\w-]{27}"$/)
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/events?jurisdiction=NJ&limit=5`, {
      headers: { "X-API-Key": keys.ent, "If-None-Match": etag }
    })
    expect(res.status).toBe(304)
    expect(await res.text()).toBe("")
    expect(res.headers.get("etag")).toBe(etag)
    // a 304 still counts against the limit and says so
    expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/)
    // a stale validator gets the full answer
    const other = await fetch(`http://127.0.0.1:${port}/api/v1/events?jurisdiction=NJ&limit=5`, {
      headers: { "X-API-Key": keys.ent, "If-None-Match": '"nope"' }
    })
    expect(other.status).toBe(200)
  })

  it("shows a materialized change within 1 s, and leaves answers about other jurisdictions cached", async () => {
    const ask = () => call("ent")("/events?jurisdiction=NY&limit=50")
    await warm("ent", "/events?jurisdiction=NY&limit=50")
    expect(KEPT).toContain((await ask()).headers.get("x-cache"))
    const nj = await warm("ent", "/events?jurisdiction=NJ&limit=50")
    const all = await warm("ent", "/events?limit=50")
    await rt.runPromise(applyChanges(changeScript("cache-ny-new", [[observation("ny-new", ALBANY)]], Date.now())))
    const took = await untilSeen(ask, (b) => ids(b).includes("ny-new"))
    expect(took).toBeLessThan(1000)
    expect(
      await untilSeen(
        () => call("ent")("/events?limit=50"),
        (b) => ids(b).includes("ny-new")
      )
    ).toBeLessThan(1000)
    expect(ids(all.body)).not.toContain("ny-new")
    const njAgain = await call("ent")("/events?jurisdiction=NJ&limit=50")
    expect(njAgain.headers.get("x-cache")).toBe("HIT")
    expect(njAgain.headers.get("etag")).toBe(nj.headers.get("etag"))
  })

  it("shows an update to one event on its detail within 1 s", async () => {
    const id = await rt
      .runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ id: string }>`SELECT id FROM events WHERE source_id = 'nj1'`)
      )
      .then((r) => r[0].id)
    const ask = () => call("ent")(`/events/${id}`)
    expect((await ask()).body.severity).toBe("minor")
    await ask()
    expect(KEPT).toContain((await ask()).headers.get("x-cache"))
    await rt.runPromise(
      applyChanges(
        changeScript(
          "cache-nj",
          [
            [observation("nj1", { jurisdiction: "NJ", latitude: 40.2, longitude: -74.5 })],
            [observation("nj1", { jurisdiction: "NJ", latitude: 40.2, longitude: -74.5, severity: "major" })]
          ],
          Date.now() - 60_000
        ).slice(-1)
      )
    )
    expect(await untilSeen(ask, (b) => b.severity === "major")).toBeLessThan(1000)
  })

  it("drops feature answers when a feature change lands", async () => {
    const ask = () => call("ent")("/features?type=cameras&jurisdiction=BC")
    expect((await ask()).body.data).toEqual([])
    await ask()
    expect(KEPT).toContain((await ask()).headers.get("x-cache"))
    const at = new Date()
    await rt.runPromise(
      applyChanges(
        diffFeaturePoll({
          source: "cache-cams",
          polledAt: at,
          now: at,
          prev: new Map(),
          presentIds: [],
          records: [feature("cam1")]
        }).changes
      )
    )
    expect(await untilSeen(ask, (b) => b.data.length === 1)).toBeLessThan(1000)
  })
})

describe("a lost invalidation feed", () => {
  it("drops every kept answer and answers without the cache until its subscription is back", async () => {
    const q = "/events?jurisdiction=NJ&limit=3"
    await warm("ent", q)
    expect((await call("ent")(q)).headers.get("x-cache")).toBe("HIT")
    // Redis closes every subscribed connection: a change published meanwhile would be missed
    const admin = createClient({ url: env.redisUrl })
    await admin.connect()
    await admin.sendCommand(["CLIENT", "KILL", "TYPE", "pubsub"])
    await admin.quit()
    const seen: Array<string> = []
    for (let i = 0; i < 100 && !(seen.includes("MISS") && seen.at(-1) === "HIT"); i++) {
      seen.push((await call("ent")(q)).headers.get("x-cache")!)
      await sleep(50)
    }
    // the worker notices at once (a request racing the socket's close may still be a hit, which
    // is sound: nothing was published yet); then bypassed while away, computed afresh, kept again
    const lost = seen.findIndex((o) => o !== "HIT")
    expect(lost).toBeGreaterThanOrEqual(0)
    expect(lost).toBeLessThan(3)
    const away = seen.slice(lost, seen.indexOf("MISS"))
    expect(away.every((o) => o === "BYPASS")).toBe(true)
    expect(seen.at(-1)).toBe("HIT")
  })
})

describe("no view leaks between callers", () => {
  it("a delayed plan never gets the answer a real-time plan saw, nor a fresher one", async () => {
    await rt.runPromise(applyChanges(changeScript("cache-fresh", [[observation("fresh1")]], Date.now())))
    const q = "/events?jurisdiction=NY&limit=50"
    expect(
      await untilSeen(
        () => call("ent")(q),
        (b) => ids(b).includes("fresh1")
      )
    ).toBeLessThan(1000)
    await warm("ent", q)
    expect(KEPT).toContain((await call("ent")(q)).headers.get("x-cache"))
    const free = await call("free")(q)
    expect(free.status).toBe(200)
    expect(ids(free.body)).not.toContain("fresh1")
    expect(ids(free.body)).toEqual(expect.arrayContaining(["ny1", "ny2"]))
    expect(free.body.warnings?.map((w: { code: string }) => w.code)).toContain("data_delayed")
    expect(free.headers.get("etag")).not.toBe((await call("ent")(q)).headers.get("etag"))
    // and its own answer is kept for it alone
    await call("free")(q)
    expect(KEPT).toContain((await call("free")(q)).headers.get("x-cache"))
  })

  it("plans with other caps or windows compute their own answer", async () => {
    const q = "/events?jurisdiction=NY&limit=2"
    await warm("ent", q)
    expect(KEPT).toContain((await call("ent")(q)).headers.get("x-cache"))
    const pro = await call("pro")(q)
    expect(pro.headers.get("x-cache")).toBe("MISS")
  })

  it("keys on one plan share answers, never each other's origin rules or limits", async () => {
    const q = "/events?jurisdiction=NJ&limit=7"
    const a = await warm("ent", q, { headers: { Origin: "https://b.example" } })
    expect(a.headers.get("access-control-allow-origin")).toBe("https://b.example")
    // the same question from a key that only answers https://a.example: refused before the cache
    const refused = await call("ent2")(q, { headers: { Origin: "https://b.example" } })
    expect(refused.status).toBe(403)
    const allowed = await call("ent2")(q, { headers: { Origin: "https://a.example" } })
    expect(allowed.status).toBe(200)
    expect(KEPT).toContain(allowed.headers.get("x-cache"))
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://a.example")
    // a cached answer still counts against the asking key's own limit (2 a minute): asked until
    // refused, the answers the refusal's window counted are two cached 200s and the 429. Each
    // answer names its window's end (X-RateLimit-Reset), so a minute that turns mid-way is seen
    const answers = [] as Array<{ status: number; window: number; cache: string | null }>
    while (answers.length < 6 && answers.at(-1)?.status !== 429) {
      const r = await call("slow")(q)
      answers.push({
        status: r.status,
        window: Math.round((Math.floor(Date.now() / 1000) + Number(r.headers.get("x-ratelimit-reset"))) / 60),
        cache: r.headers.get("x-cache")
      })
    }
    const refusal = answers.at(-1)!
    const counted = answers.filter((a) => a.window === refusal.window)
    expect(counted.map((a) => a.status)).toEqual([200, 200, 429])
    for (const a of counted.slice(0, 2)) expect(KEPT).toContain(a.cache)
    expect((await call("ent")(q)).headers.get("x-ratelimit-limit")).not.toBe("2")
  })
})

describe("validators and cache headers on other answers", () => {
  it("every JSON GET answer carries an ETag and honours If-None-Match", async () => {
    for (const path of ["/jurisdictions", "/features/groups", "/coverage"]) {
      const first = await call("ent")(path)
      expect(first.status, path).toBe(200)
      const etag = first.headers.get("etag")
      expect(etag, path).toBeTruthy()
      const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
        headers: { "X-API-Key": keys.ent, "If-None-Match": etag! }
      })
      expect(res.status, path).toBe(304)
    }
  })

  it("metadata answers carry SPEC §8's cache lifetimes", async () => {
    const expected: Record<string, string> = {
      "/features/types": "private, max-age=120",
      "/features/groups": "private, max-age=3600",
      "/stats/summary": "private, max-age=60",
      "/fuel-prices": "private, max-age=86400"
    }
    for (const [path, cc] of Object.entries(expected))
      expect((await call("ent")(path)).headers.get("cache-control"), path).toBe(cc)
    const status = await fetch(`http://127.0.0.1:${port}/api/v1/status`)
    expect(status.headers.get("cache-control")).toBe("public, max-age=60")
  })
})
