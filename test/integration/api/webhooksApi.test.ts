import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { makeTestEnv } from "../../support/harness.js"
import { api } from "../../support/http.js"

/**
 * /api/v1/webhooks: create, list, update, disable, re-enable, delete; the secret shown once;
 * filters validated; targets checked. Server "strict" refuses private targets (the default),
 * server "lab" allows them (WEBHOOK_ALLOW_PRIVATE_TARGETS, as tests with a loopback receiver need).
 */
const env = makeTestEnv({ webhookAllowPrivateTargets: true })
const ports: Record<string, number> = {}
const rt = ManagedRuntime.make(
  Layer.mergeAll(
    ApiServerLive({ port: 0, onListen: (p) => (ports.lab = p) }),
    ApiServerLive({ port: 0, onListen: (p) => (ports.strict = p) }).pipe(
      Layer.provide(AppConfig.make({ webhookAllowPrivateTargets: false }))
    )
  ).pipe(Layer.provideMerge(env.layer))
)
const keys: Record<string, string> = {}
const call = (server: string, plan = "pro") => api(`http://127.0.0.1:${ports[server]}/api/v1`, keys[plan])
const json = (method: string, body: unknown) => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body)
})
const root = fileURLToPath(new URL("../../..", import.meta.url))

beforeAll(async () => {
  await rt.runtime()
  for (const plan of ["starter", "pro"])
    keys[plan] = (await rt.runPromise(createKey({ plan, email: `${plan}@hooks.example.com` }))).key
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

describe("webhook subscriptions over the API", () => {
  it("are Pro and above", async () => {
    const r = await call("lab", "starter")("/webhooks")
    expect(r.status).toBe(403)
    expect(r.body).toMatchObject({ code: "plan_webhooks", plan: "starter" })
  })

  it("go through create, list, update, disable, re-enable and delete; the secret is shown once", async () => {
    const created = await call("lab")(
      "/webhooks",
      json("POST", {
        url: "http://127.0.0.1:9/hook",
        name: "ops",
        jurisdiction: ["ny", "NJ"],
        type: "incident,closure",
        severity: ["major", "critical"],
        cause: ["accident"]
      })
    )
    expect(created.status).toBe(201)
    const sub = created.body
    expect(sub).toMatchObject({
      name: "ops",
      url: "http://127.0.0.1:9/hook",
      jurisdiction: ["NY", "NJ"],
      type: ["incident", "closure"],
      sub_type: [],
      severity: ["major", "critical"],
      cause: ["accident"],
      batch_window_seconds: null,
      enabled: true,
      consecutive_failures: 0
    })
    expect(sub.id).toMatch(/^whk_/)
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(sub.secret_hint).toBe(`${sub.secret.slice(0, 10)}…`)
    // never again: not in the list, not in a read, not in the database in clear
    const listed = await call("lab")("/webhooks")
    expect(listed.body.data.map((s: any) => s.id)).toEqual([sub.id])
    expect(JSON.stringify(listed.body)).not.toContain(sub.secret)
    expect(JSON.stringify((await call("lab")(`/webhooks/${sub.id}`)).body)).not.toContain(sub.secret)
    const [stored] = await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ secret_enc: Buffer; match: Array<string> }>`
      SELECT secret_enc, match_jurisdictions AS match FROM webhook_subscriptions WHERE id = ${sub.id}`
      )
    )
    expect(Buffer.from(stored.secret_enc).toString("latin1")).not.toContain(sub.secret.slice(6, 20))
    // a state's primary code covers its group
    expect(stored.match).toEqual(expect.arrayContaining(["NY", "WZDX_NY", "NYC", "NJ", "WZDX_NJ"]))

    const updated = await call("lab")(`/webhooks/${sub.id}`, json("PATCH", { severity: [], batch_window_seconds: 60 }))
    expect(updated.body).toMatchObject({ severity: [], batch_window_seconds: 60 })
    const disabled = await call("lab")(`/webhooks/${sub.id}`, json("PATCH", { enabled: false }))
    expect(disabled.body).toMatchObject({ enabled: false, disabled_reason: "owner" })
    const enabled = await call("lab")(`/webhooks/${sub.id}`, json("PATCH", { enabled: true }))
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null, consecutive_failures: 0 })
    const rotated = await call("lab")(`/webhooks/${sub.id}/rotate-secret`, { method: "POST" })
    expect(rotated.body.secret).toMatch(/^whsec_/)
    expect(rotated.body.secret).not.toBe(sub.secret)
    expect((await call("lab")(`/webhooks/${sub.id}`, { method: "DELETE" })).status).toBe(204)
    expect((await call("lab")(`/webhooks/${sub.id}`)).status).toBe(404)
    expect((await call("lab")("/webhooks")).body.data).toEqual([])
  })

  it("refuses bad filters and windows with 400s that say why", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ url: "http://127.0.0.1:9/h" }, /jurisdiction/],
      [{ url: "http://127.0.0.1:9/h", jurisdiction: [] }, /jurisdiction is required/],
      [{ url: "http://127.0.0.1:9/h", jurisdiction: ["ZZ"] }, /unknown jurisdiction ZZ/],
      [{ url: "http://127.0.0.1:9/h", jurisdiction: ["NY"], type: ["incidnet"] }, /unknown type incidnet/],
      [{ url: "http://127.0.0.1:9/h", jurisdiction: ["NY"], severity: ["huge"] }, /unknown severity/],
      [{ url: "http://127.0.0.1:9/h", jurisdiction: ["NY"], batch_window_seconds: 0 }, /1 to 300/],
      [
        { url: "http://127.0.0.1:9/h", jurisdiction: ["NY"], batch_window_seconds: 301 },
        /^batch_window_seconds must be a whole number from 1 to 300, or null for immediate delivery$/
      ],
      [
        { url: "http://127.0.0.1:9/h", jurisdiction: ["NY"], batch_window_seconds: "soon" },
        /^batch_window_seconds must be a whole number from 1 to 300, or null for immediate delivery$/
      ],
      [{ url: "http://127.0.0.1:9/h", jurisdiction: ["NY"], batch_window_seconds: 1.5 }, /1 to 300/],
      [
        { url: "http://127.0.0.1:9/h", jurisdiction: ["NY"], surprise: 1 },
        /^surprise is not a field this endpoint takes$/
      ],
      [{ url: "ftp://127.0.0.1/h", jurisdiction: ["NY"] }, /http or https/],
      [{ url: "not a url", jurisdiction: ["NY"] }, /valid absolute URL/],
      [{ url: "https://user:pw@93.184.216.34/h", jurisdiction: ["NY"] }, /credentials/],
      [[1, 2], /^body must be a JSON object$/]
    ]
    for (const [body, message] of cases) {
      const r = await call("lab")("/webhooks", json("POST", body))
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.error, JSON.stringify(body)).toMatch(message)
    }
    expect((await call("lab")("/webhooks/whk_nope", json("PATCH", { enabled: false }))).status).toBe(404)
  })

  it("refuses private, loopback and link-local targets unless the setting allows them", async () => {
    for (const url of [
      "http://127.0.0.1:8080/h",
      "http://10.1.2.3/h",
      "http://192.168.0.10/h",
      "http://169.254.169.254/latest",
      "http://[::1]/h",
      "http://[::ffff:127.0.0.1]/h",
      "http://100.64.0.1/h"
    ]) {
      const r = await call("strict")("/webhooks", json("POST", { url, jurisdiction: ["NY"] }))
      expect(r.status, url).toBe(400)
      expect(r.body.error, url).toMatch(/private, loopback or link-local|does not resolve/)
    }
    const pub = await call("strict")(
      "/webhooks",
      json("POST", { url: "https://93.184.216.34/hook", jurisdiction: ["NY"] })
    )
    expect(pub.status).toBe(201)
    await call("strict")(`/webhooks/${pub.body.id}`, { method: "DELETE" })
  })
})

describe("webhook subscriptions from the admin CLI", () => {
  const cli = async (...args: Array<string>) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "infra/admin/cli.ts", "webhooks", ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: env.dbUrl,
          REDIS_URL: env.redisUrl,
          REDIS_PREFIX: env.prefix,
          WEBHOOK_ALLOW_PRIVATE_TARGETS: "true"
        }
      }
    )
    return stdout
  }

  it("creates (secret last, once), lists, updates, disables, enables and deletes", async () => {
    const email = "pro@hooks.example.com"
    const out = await cli(
      "create",
      "--email",
      email,
      "--url",
      "http://127.0.0.1:9/cli",
      "--jurisdiction",
      "BC",
      "--cause",
      "accident",
      "--batch-window",
      "30"
    )
    const lines = out.trim().split("\n")
    const secret = lines.at(-1)!
    expect(secret).toMatch(/^whsec_/)
    const sub = JSON.parse(lines.slice(0, -1).join("\n"))
    expect(sub).toMatchObject({ jurisdiction: ["BC"], cause: ["accident"], batch_window_seconds: 30, enabled: true })
    expect(JSON.stringify(sub)).not.toContain(secret)
    expect(JSON.parse(await cli("list", "--email", email)).map((s: any) => s.id)).toContain(sub.id)
    expect(JSON.parse(await cli("update", "--email", email, "--id", sub.id, "--severity", "major"))).toMatchObject({
      severity: ["major"]
    })
    expect(JSON.parse(await cli("disable", "--email", email, "--id", sub.id))).toMatchObject({ enabled: false })
    expect(JSON.parse(await cli("enable", "--email", email, "--id", sub.id))).toMatchObject({ enabled: true })
    expect(JSON.parse(await cli("deliveries", "--email", email, "--id", sub.id))).toMatchObject({ data: [], total: 0 })
    expect(JSON.parse(await cli("delete", "--email", email, "--id", sub.id))).toEqual({ deleted: sub.id })
    expect(JSON.parse(await cli("list", "--email", email)).map((s: any) => s.id)).not.toContain(sub.id)
    // eight CLI processes, each starting Node and tsx: 30-40 s on a quiet 2-core machine
  }, 180_000)
})
