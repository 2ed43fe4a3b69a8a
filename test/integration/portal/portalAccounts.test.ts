import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { flushUsage } from "../../../api/portal/requestUsage.js"
import { clear, THROTTLES } from "../../../api/portal/throttle.js"
import { portalRoutes } from "../../../api/routes/portal/index.js"
import { portalClient } from "../../support/portalClient.js"
import { type PortalWorld, startPortalWorld } from "../../support/portalWorld.js"

/**
 * Portal accounts over real HTTP, a real SMTP server and real Postgres/Redis: sign-up with the
 * trial, verification by a mailed single-use link, log-in and -out, password reset, and the
 * guards around them (CSRF, throttling, revoked sessions).
 */
let w: PortalWorld
beforeAll(async () => {
  w = await startPortalWorld()
})
afterAll(async () => {
  await w?.close()
})

const sql = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  w.run(Effect.flatMap(SqlClient.SqlClient, f))
let n = 0
const email = () => `user${++n}.${Date.now() % 100000}@example.com`

describe("sign-up and verification", () => {
  it("starts a 14-day Free trial, stores an argon2id hash, logs in and mails a single-use link", async () => {
    const c = portalClient(w.base)
    const address = email()
    const r = await c.signUp(address)
    expect(r.status).toBe(201)
    expect(r.body.customer).toMatchObject({
      email: address,
      plan_code: "free",
      email_verified: false,
      company: "Acme Freight"
    })
    const trial = Date.parse(r.body.customer.trial_ends_at) - Date.parse(r.body.customer.created_at)
    expect(Math.round(trial / 86_400_000)).toBe(14)
    const session = r.setCookies.find((s) => s.startsWith("rds_session="))!
    expect(session).toMatch(/HttpOnly/i)
    expect(session).toMatch(/SameSite=Lax/i)
    expect(session).not.toMatch(/Secure/i) // plain HTTP on loopback; Secure behind TLS (portalUrl https)
    const [row] = await sql<{ password_hash: string }>(
      (s) => s`SELECT password_hash FROM customers WHERE email = ${address}`
    )
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/)

    const mail = await w.mailbox.next(address, /Confirm your email/)
    const link = w.mailbox.linkIn(mail)
    expect(link.startsWith(`${w.base}/verify?token=`)).toBe(true)
    const token = new URL(link).searchParams.get("token")!
    expect((await c.request("POST", "/portal/verify", { token })).status).toBe(200)
    expect((await c.open()).body.customer.email_verified).toBe(true)
    // single use
    const again = await c.request("POST", "/portal/verify", { token })
    expect(again.status).toBe(400)
    expect(again.body.error).toMatch(/expired or was already used/)
  })

  it("refuses an expired link, a second account for the same email, and a short password", async () => {
    const c = portalClient(w.base)
    const address = email()
    await c.signUp(address)
    const token = new URL(w.mailbox.linkIn(await w.mailbox.next(address, /Confirm/))).searchParams.get("token")!
    await sql(
      (s) =>
        s`UPDATE email_tokens SET expires_at = expires_at - interval '25 hours' WHERE customer_id = (SELECT id FROM customers WHERE email = ${address})`
    )
    expect((await c.request("POST", "/portal/verify", { token })).status).toBe(400)
    const twice = await portalClient(w.base).signUp(address.toUpperCase())
    expect(twice.status).toBe(400)
    expect(twice.body.error).toMatch(/already exists/)
    const short = await portalClient(w.base).signUp(email(), "short")
    expect(short.status).toBe(400)
    expect(short.body.error).toMatch(/password must be at least 10 characters/)
  })
})

describe("sessions", () => {
  it("a session cookie from a logged-out session no longer works", async () => {
    const c = portalClient(w.base)
    const address = email()
    await c.signUp(address)
    expect((await c.request("GET", "/portal/keys")).status).toBe(200)
    const stolen = c.jar.get("rds_session")!
    expect((await c.request("POST", "/portal/logout")).status).toBe(200)
    expect(c.jar.has("rds_session")).toBe(false)
    const replay = await fetch(`${w.base}/api/v1/portal/keys`, { headers: { Cookie: `rds_session=${stolen}` } })
    expect(replay.status).toBe(401)
    const [row] = await sql<{ revoked: boolean }>(
      (s) =>
        s`SELECT revoked_at IS NOT NULL AS revoked FROM portal_sessions s JOIN customers c ON c.id = s.customer_id WHERE c.email = ${address}`
    )
    expect(row.revoked).toBe(true)
    // logging in again works
    expect((await c.logIn(address, "correct horse battery")).status).toBe(200)
    expect((await c.request("GET", "/portal/keys")).status).toBe(200)
  })

  it("refuses a forged cross-site POST: another origin, no token, a wrong token, or Sec-Fetch-Site cross-site", async () => {
    const c = portalClient(w.base)
    await c.signUp(email())
    const cookie = [...c.jar].map(([k, v]) => `${k}=${v}`).join("; ")
    const forge = (headers: Record<string, string>) =>
      fetch(`${w.base}/api/v1/portal/keys`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ name: "forged" })
      })
    const answers = await Promise.all([
      forge({ Origin: "http://evil.example" }),
      forge({ Origin: "http://evil.example", "X-CSRF-Token": c.csrf }),
      forge({ "X-CSRF-Token": "x".repeat(43) }),
      forge({ "Sec-Fetch-Site": "cross-site", "X-CSRF-Token": c.csrf })
    ])
    for (const a of answers) {
      expect(a.status).toBe(403)
      expect((await a.json()).error).toMatch(/^cross-site request refused/)
    }
    const [{ n: keys }] = await sql<{ n: number }>(
      (s) => s`SELECT count(*)::int AS n FROM api_keys WHERE name = 'forged'`
    )
    expect(keys).toBe(0)
    // the same call from the portal's page goes through (this customer is unverified, so 403 of another kind)
    const real = await c.request("POST", "/portal/keys", { name: "real" })
    expect(real.body.error).toMatch(/confirm your email/)
  })

  it(`answers 429 with Retry-After after ${THROTTLES.loginAccount.limit} wrong passwords for one account, even to the right one`, async () => {
    const c = portalClient(w.base)
    const address = email()
    await c.signUp(address)
    await c.request("POST", "/portal/logout")
    // the per-account counter (5) fills before the per-address one (20)
    for (let i = 0; i < THROTTLES.loginAccount.limit; i++) {
      const r = await c.request("POST", "/portal/login", { email: address, password: `wrong password ${i}` })
      expect(r.status).toBe(401)
      expect(r.body.error).toBe("the email or the password is wrong")
    }
    const locked = await c.request("POST", "/portal/login", { email: address, password: "correct horse battery" })
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800)
    expect(locked.body.error).toMatch(/too many failed log-ins for this account/)
  })

  it("an unknown email gets the same answer as a wrong password", async () => {
    const r = await portalClient(w.base).logIn(email(), "whatever password")
    expect(r.status).toBe(401)
    expect(r.body.error).toBe("the email or the password is wrong")
  })
})

describe("password reset", () => {
  it("mails a one-hour link; the new password works, the old one and every old session do not", async () => {
    const c = portalClient(w.base)
    const address = email()
    await c.signUp(address, "first password 123")
    const other = portalClient(w.base)
    const r = await other.open().then(() => other.request("POST", "/portal/password-reset", { email: address }))
    expect(r.status).toBe(202)
    const link = w.mailbox.linkIn(await w.mailbox.next(address, /Reset your/))
    expect(link.startsWith(`${w.base}/reset?token=`)).toBe(true)
    const token = new URL(link).searchParams.get("token")!
    const [t] = await sql<{ minutes: number }>(
      (s) =>
        s`SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM email_tokens WHERE purpose = 'reset' ORDER BY created_at DESC LIMIT 1`
    )
    expect(t.minutes).toBe(60)
    expect(
      (await other.request("POST", "/portal/password-reset/confirm", { token, password: "second password 456" })).status
    ).toBe(200)
    expect(
      (await other.request("POST", "/portal/password-reset/confirm", { token, password: "third password 789" })).status
    ).toBe(400)
    expect((await c.request("GET", "/portal/keys")).status).toBe(401)
    expect((await portalClient(w.base).logIn(address, "first password 123")).status).toBe(401)
    expect((await portalClient(w.base).logIn(address, "second password 456")).status).toBe(200)
  })

  it("answers the same for an unknown address and sends nothing", async () => {
    const c = portalClient(w.base)
    await c.open()
    const before = w.mailbox.mails.length
    const r = await c.request("POST", "/portal/password-reset", { email: "nobody@example.com" })
    expect(r.status).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(w.mailbox.mails.length).toBe(before)
  })
})

const clearLoopback = () =>
  w.run(Effect.forEach(["127.0.0.1", "::ffff:127.0.0.1", "::1"], (ip) => clear("loginAddress", ip)))

describe("throttles per address", () => {
  it(`answers 429 after ${THROTTLES.loginAddress.limit} failed log-ins from one address, whichever accounts they name`, async () => {
    const c = portalClient(w.base)
    await c.open()
    // X-Forwarded-For is not trusted (app.proxy is off), so every test here comes from loopback: start from a clean
    // counter
    await clearLoopback()
    let last = 0
    for (let i = 0; i <= THROTTLES.loginAddress.limit; i++) {
      last = (await c.request("POST", "/portal/login", { email: `nobody${i}@example.com`, password: "wrong password" }))
        .status
      if (i < THROTTLES.loginAddress.limit) expect(last).toBe(401)
    }
    expect(last).toBe(429)
    await clearLoopback()
  })

  it(`sends at most ${THROTTLES.resetAccount.limit} reset mails an hour for one account`, async () => {
    const c = portalClient(w.base)
    const address = email()
    await c.signUp(address)
    const statuses: Array<number> = []
    for (let i = 0; i <= THROTTLES.resetAccount.limit; i++)
      statuses.push((await c.request("POST", "/portal/password-reset", { email: address })).status)
    expect(statuses).toEqual([...Array(THROTTLES.resetAccount.limit).fill(202), 429])
  })
})

/** A new customer signed up and verified, its browser stand-in signed in. */
const verifiedClient = async () => {
  const c = portalClient(w.base)
  const address = email()
  await c.signUp(address)
  const token = new URL(w.mailbox.linkIn(await w.mailbox.next(address, /Confirm/))).searchParams.get("token")!
  await c.request("POST", "/portal/verify", { token })
  return { c, address }
}

describe("keys and usage", () => {
  it("a key made in the portal is stored hashed, listed without its secret, limited by its end date, and refused once revoked", async () => {
    const { c, address } = await verifiedClient()
    expect(
      (await c.request("POST", "/portal/keys", { name: "late", expires_at: "2001-01-01T00:00:00Z" })).body.error
    ).toMatch(/in the future/)
    expect(
      (await c.request("POST", "/portal/keys", { name: "bad", allowed_origins: ["https://x.example/path"] })).body.error
    ).toMatch(/scheme, host, optional port/)
    const made = await c.request("POST", "/portal/keys", {
      name: "ci",
      allowed_origins: ["https://app.example.com"],
      expires_at: "2999-01-01T00:00:00Z"
    })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({
      name: "ci",
      allowed_origins: ["https://app.example.com"],
      is_active: true,
      rate_limit_rpm: 30,
      owner_email: address
    })
    const listed = (await c.request("GET", "/portal/keys")).body.data
    expect(listed).toHaveLength(1)
    expect(JSON.stringify(listed)).not.toContain(made.body.key)
    expect(listed[0].key_prefix).toBe(made.body.key.slice(0, 12))

    const call = () => fetch(`${w.base}/api/v1/events?jurisdiction=NY`, { headers: { "X-API-Key": made.body.key } })
    expect((await call()).status).toBe(200)
    // the day's count reaches Postgres with the minute's copy
    await w.run(flushUsage)
    const [usage] = await sql<{ requests: string }>(
      (s) =>
        s`SELECT requests::text FROM request_usage u JOIN customers c ON c.id = u.customer_id WHERE c.email = ${address}`
    )
    expect(Number(usage.requests)).toBe(1)
    const page = (await c.request("GET", "/portal/usage")).body
    expect(page.today).toMatchObject({ requests: 1, daily_limit: 1000 })
    expect(page.days).toHaveLength(30)
    expect(page.today.keys[0]).toMatchObject({ name: "ci", this_minute: 1, rate_limit_rpm: 30 })

    // a second key, revoked before any use (API processes cache a used key for 15 s)
    const other = await c.request("POST", "/portal/keys", { name: "spare" })
    expect((await c.request("DELETE", `/portal/keys/${other.body.id}`)).status).toBe(204)
    expect(
      (await fetch(`${w.base}/api/v1/events?jurisdiction=NY`, { headers: { "X-API-Key": other.body.key } })).status
    ).toBe(401)
    expect((await c.request("DELETE", "/portal/keys/999999")).status).toBe(404)
  })
})

describe("the portal's pages call the API with the session", () => {
  // the file signs up more accounts than one address may in an hour
  beforeAll(() => w.run(Effect.forEach(["127.0.0.1", "::ffff:127.0.0.1", "::1"], (ip) => clear("signupAddress", ip))))
  it("answers a keyed route to the logged-in browser as its customer, under one portal credential that is no key of theirs", async () => {
    const { c, address } = await verifiedClient()
    // GET /account with the cookie and no key: the customer, under the portal's credential
    const me = await c.request("GET", "/account")
    expect(me.status).toBe(200)
    expect(me.body.customer.email).toBe(address)
    expect(me.body.key.name).toBe("Portal pages (map, route planner, API reference)")
    const again = await c.request("GET", "/events?jurisdiction=NY")
    expect(again.status).toBe(200)
    // one credential however many calls, not listed, not counted: twenty keys of their own still fit
    for (let i = 0; i < 20; i++) expect((await c.request("POST", "/portal/keys", { name: `k${i}` })).status).toBe(201)
    expect((await c.request("POST", "/portal/keys", { name: "k20" })).body.error).toMatch(/20 active keys/)
    const listed = (await c.request("GET", "/portal/keys")).body.data as Array<{ name: string }>
    expect(listed.map((k) => k.name)).not.toContain("Portal pages (map, route planner, API reference)")
    const [{ n }] = await sql<{ n: number }>(
      (s) =>
        s`SELECT count(*)::int AS n FROM api_keys k JOIN customers c ON c.id = k.customer_id WHERE c.email = ${address} AND k.portal`
    )
    expect(n).toBe(1)
    // the usage page names it
    expect((await c.request("GET", "/portal/usage")).body.today.keys.map((k: { name: string }) => k.name)).toContain(
      "Portal pages (map, route planner, API reference)"
    )
    // it cannot be revoked from the keys page
    expect((await c.request("DELETE", `/portal/keys/${me.body.key.id}`)).status).toBe(404)
  })

  it("refuses a change without the CSRF token, a logged-out cookie, and no cookie at all", async () => {
    const c = portalClient(w.base)
    const address = email()
    await c.signUp(address)
    // a POST on a keyed route without the page's token: refused as any portal change would be
    const forged = await c.request("POST", "/routing/route", {}, { "X-CSRF-Token": "forged" })
    expect(forged.status).toBe(403)
    expect((await fetch(`${w.base}/api/v1/account`)).status).toBe(401)
    const cookie = (await fetch(`${w.base}/api/v1/account`, { headers: { Cookie: "rds_session=" + "x".repeat(43) } }))
      .status
    expect(cookie).toBe(401)
    // a key sent with the cookie is the key's call
    expect((await c.request("GET", "/account", undefined, { "X-API-Key": "rds_nonsense" })).status).toBe(401)
  })
})

describe("every portal change is guarded, and the pages carry no inline script", () => {
  it("each state-changing portal route refuses a call without the CSRF token, even with a live session", async () => {
    const c = portalClient(w.base)
    await c.signUp(email())
    const cookie = [...c.jar].map(([k, v]) => `${k}=${v}`).join("; ")
    const changing = portalRoutes.filter((r) => r.method !== "get")
    expect(changing.length).toBeGreaterThan(15)
    for (const r of changing) {
      const path = r.path.replace(/:(\w+)/g, "x")
      const res = await fetch(`${w.base}/api/v1${path}`, {
        method: r.method.toUpperCase(),
        headers: { Cookie: cookie, "Content-Type": "application/json" },
        body: "{}"
      })
      expect([r.path, res.status, (await res.json()).error]).toEqual([
        r.path,
        403,
        expect.stringMatching(/^cross-site request refused/)
      ])
    }
  })

  it("serves each page with a Content-Security-Policy that allows no inline script, and only scripts from itself", async () => {
    for (const page of ["/", "/signup", "/keys", "/webhooks/whk_x", "/billing/upgrade"]) {
      const res = await fetch(`${w.base}${page}`)
      expect(res.status).toBe(200)
      const csp = res.headers.get("content-security-policy")!
      expect(csp).toContain("script-src 'self'")
      expect(csp).not.toContain("unsafe-inline")
      expect(csp).not.toContain("unsafe-eval")
      expect(res.headers.get("x-frame-options")).toBe("DENY")
      const html = await res.text()
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      expect(scripts.length).toBe(1)
      expect(scripts.every(([, attrs, body]) => /\bsrc="\/assets\//.test(attrs) && body.trim() === "")).toBe(true)
      expect(html).not.toMatch(/\son[a-z]+=/i)
    }
  })
})
