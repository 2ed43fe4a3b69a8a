import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { Redis } from "../../../shared/db/Redis.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/** Two API servers on one Redis, as two processes behind a load balancer would be. */
const env = makeTestEnv()
const ports: Array<number> = []
const rt = ManagedRuntime.make(
  Layer.mergeAll(
    ApiServerLive({ port: 0, onListen: (p) => ports.push(p) }),
    ApiServerLive({ port: 0, onListen: (p) => ports.push(p) })
  ).pipe(Layer.provideMerge(env.layer))
)
const base = (i: number) => `http://127.0.0.1:${ports[i]}/api/v1`

beforeAll(async () => {
  await rt.runtime()
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const key = (plan: string, email: string, rpm?: number) =>
  rt.runPromise(createKey({ plan, email, rateLimitRpm: rpm })).then((k) => k.key)

describe("rate limits", () => {
  it("counts a key's requests across API processes and answers 429 with Retry-After", async () => {
    const k = await key("pro", "rl@example.com", 3)
    // alternating between the two processes until one refuses: seven requests reach a refusal even
    // when they straddle a minute's end (the windows themselves are shown on a TestClock in
    // rateLimitWindows.test.ts), so this needs no wait for the wall clock
    const answers: Array<Awaited<ReturnType<ReturnType<typeof api>>>> = []
    for (let i = 0; i < 7 && !answers.some((a) => a.status === 429); i++)
      answers.push(await api(base(i % 2), k)("/jurisdictions/groups"))
    const refused = answers.findIndex((a) => a.status === 429)
    expect(refused).toBeGreaterThanOrEqual(3)
    // the three before the refusal were counted in its window, by both processes together
    expect(
      answers.slice(refused - 3, refused + 1).map((a) => [a.status, a.headers.get("x-ratelimit-remaining")])
    ).toEqual([
      [200, "2"],
      [200, "1"],
      [200, "0"],
      [429, "0"]
    ])
    expect(answers[0].headers.get("x-ratelimit-limit")).toBe("3")
    const retry = Number(answers[refused].headers.get("retry-after"))
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(60)
    expect(answers[refused].body.error).toMatch(/3 requests per minute/)
  })

  it("uses the plan's rate when the key has none, and enforces the Free daily limit", async () => {
    const k = await key("free", "daily@example.com")
    const first = await api(base(0), k)("/jurisdictions/groups")
    expect(first.headers.get("x-ratelimit-limit")).toBe("30")
    expect(first.headers.get("x-ratelimit-daily-limit")).toBe("1000")
    expect(first.headers.get("x-ratelimit-daily-remaining")).toBe("999")
    // spend the day's budget directly in Redis
    await rt.runPromise(
      Effect.gen(function* () {
        const redis = yield* Redis
        const sql = yield* SqlClient.SqlClient
        const [{ id }] = yield* sql<{
          id: number
        }>`SELECT k.id FROM api_keys k JOIN customers c ON c.id = k.customer_id WHERE c.email = 'daily@example.com'`
        yield* redis.use("set", (c) =>
          c.set(redis.key("rld", String(id), new Date().toISOString().slice(0, 10)), "1000")
        )
      })
    )
    const over = await api(base(1), k)("/jurisdictions/groups")
    expect(over.status).toBe(429)
    expect(over.body.error).toMatch(/daily request limit of 1000/)
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0)
  })
})

describe("trial and subscription state", () => {
  it("answers 403 trial_expired after a Free trial and subscription_expired after a paid plan ends", async () => {
    const free = await key("free", "trial@example.com")
    const pro = await key("pro", "lapsed@example.com")
    await rt.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.all([
          sql`UPDATE customers SET trial_ends_at = ${new Date(Date.now() - 86_400_000).toISOString()} WHERE email = 'trial@example.com'`,
          sql`UPDATE customers SET subscription_ends_at = ${new Date(Date.now() - 3_600_000).toISOString()}, subscription_status = 'canceled' WHERE email = 'lapsed@example.com'`
        ])
      )
    )
    const t = await api(base(0), free)("/events?jurisdiction=NY")
    expect(t.status).toBe(403)
    expect(t.body).toMatchObject({
      code: "trial_expired",
      plan: "free",
      plan_name: "Free",
      docs_url: "/docs/plans#trial_expired"
    })
    const s = await api(base(1), pro)("/events")
    expect(s.status).toBe(403)
    expect(s.body.code).toBe("subscription_expired")
  })
})

describe("key state", () => {
  it("answers 401 for a key past expires_at and for a disabled key; a future expiry works", async () => {
    const past = (
      await rt.runPromise(
        createKey({ plan: "pro", email: "exp@example.com", expiresAt: new Date(Date.now() - 60_000).toISOString() })
      )
    ).key
    const future = (
      await rt.runPromise(
        createKey({ plan: "pro", email: "exp2@example.com", expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
      )
    ).key
    const off = (await rt.runPromise(createKey({ plan: "pro", email: "off@example.com" }))).key
    await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE api_keys SET is_active = false WHERE customer_id = (SELECT id FROM customers WHERE email = 'off@example.com')`
      )
    )
    const expired = await api(base(0), past)("/jurisdictions/groups")
    expect(expired.status).toBe(401)
    expect(expired.body).toEqual({ error: "API key has expired", docs_url: "/docs/authentication" })
    expect((await api(base(0), future)("/jurisdictions/groups")).status).toBe(200)
    const disabled = await api(base(1), off)("/jurisdictions/groups")
    expect(disabled.status).toBe(401)
    expect(disabled.body.error).toBe("API key is disabled")
  })
})

describe("origins (CORS)", () => {
  it("answers preflights, serves a key's allowed origins and refuses others", async () => {
    const k = await rt
      .runPromise(createKey({ plan: "pro", email: "cors@example.com", allowedOrigins: ["https://app.example.com"] }))
      .then((x) => x.key)
    const pre = await fetch(`${base(0)}/events`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.example.com", "Access-Control-Request-Method": "GET" }
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/X-API-Key/)
    const ok = await api(base(0), k)("/jurisdictions/groups", { headers: { Origin: "https://app.example.com" } })
    expect(ok.status).toBe(200)
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example.com")
    expect(ok.headers.get("access-control-expose-headers")).toMatch(/X-RateLimit-Remaining/)
    const bad = await api(base(0), k)("/jurisdictions/groups", { headers: { Origin: "https://evil.example.net" } })
    expect(bad.status).toBe(403)
    expect(bad.body.error).toMatch(/not allowed for this API key/)
    // servers send no Origin and are not affected
    expect((await api(base(1), k)("/jurisdictions/groups")).status).toBe(200)
    expect(
      (await api(base(1))("/health", { headers: { Origin: "https://any.example.org" } })).headers.get(
        "access-control-allow-origin"
      )
    ).toBe("*")
  })
})
