import { Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { makeTestEnv } from "../../support/harness.js"

/**
 * SPEC §2.7 over real HTTP: every error is JSON with `error` and `docs_url`, including the ones
 * Koa and the body parser produce (unknown path, wrong method, malformed JSON, too large, wrong type).
 */
const env = makeTestEnv()
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer))
)
let key = ""

beforeAll(async () => {
  await rt.runtime()
  key = (await rt.runPromise(createKey({ plan: "pro", email: "errors@example.com" }))).key
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const send = async (
  method: string,
  path: string,
  init: { body?: string; type?: string; headers?: Record<string, string> } = {}
) => {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { "X-API-Key": key, ...(init.type ? { "content-type": init.type } : {}), ...init.headers },
    body: init.body
  })
  const text = await res.text()
  return {
    status: res.status,
    type: res.headers.get("content-type") ?? "",
    allow: res.headers.get("allow"),
    requestId: res.headers.get("x-request-id"),
    body: JSON.parse(text)
  }
}

const uniform = (r: Awaited<ReturnType<typeof send>>, status: number, error: RegExp, docs: RegExp) => {
  expect(r.status).toBe(status)
  expect(r.type).toMatch(/^application\/json/)
  expect(r.body.error).toMatch(error)
  expect(r.body.docs_url).toMatch(docs)
  expect(r.requestId).toMatch(/^[0-9a-f-]{36}$/)
}

describe("uniform error bodies", () => {
  it("404 for an unknown path, inside and outside /api/v1", async () => {
    uniform(await send("GET", "/api/v1/nope"), 404, /^no such endpoint: GET \/api\/v1\/nope$/, /^\/docs\/api$/)
    uniform(await send("GET", "/elsewhere"), 404, /no such endpoint/, /^\/docs\/api$/)
    uniform(await send("GET", "/docs/no-such-page"), 404, /no such endpoint/, /^\/docs\/api$/)
  })

  it("405 with Allow for a known path and another method (was plain text)", async () => {
    const r = await send("DELETE", "/api/v1/events")
    uniform(r, 405, /^DELETE is not allowed on \/api\/v1\/events; allowed: /, /^\/docs\/errors#405$/)
    expect(r.allow).toMatch(/GET/)
    expect(r.body.error).toContain(r.allow!)
    uniform(await send("PUT", "/api/v1/webhooks/whk_1"), 405, /allowed: .*PATCH/, /#405$/)
  })

  it("400 for malformed JSON, before any handler runs", async () => {
    uniform(
      await send("POST", "/api/v1/features/details/batch", { body: '{"ids": [', type: "application/json" }),
      400,
      /^malformed request body: send valid JSON$/,
      /^\/docs\/errors#400$/
    )
    uniform(
      await send("POST", "/api/v1/webhooks", { body: "{'url': 1}", type: "application/json" }),
      400,
      /malformed request body/,
      /#400$/
    )
  })

  it("413 for a body over 1 MB, by header and by content", async () => {
    const big = JSON.stringify({ ids: ["x".repeat(1024 * 1024)] })
    uniform(
      await send("POST", "/api/v1/features/details/batch", { body: big, type: "application/json" }),
      413,
      /^request body too large/,
      /^\/docs\/errors#413$/
    )
  })

  it("400 that names the field for a body of the wrong shape", async () => {
    uniform(
      await send("POST", "/api/v1/features/details/batch", {
        body: JSON.stringify({ ids: [] }),
        type: "application/json"
      }),
      400,
      /^ids must be a non-empty list of feature ids/,
      /#400$/
    )
    uniform(
      await send("POST", "/api/v1/features/details/batch", { body: JSON.stringify({}), type: "application/json" }),
      400,
      /^ids is required$/,
      /#400$/
    )
    uniform(
      await send("POST", "/api/v1/features/details/batch", {
        body: JSON.stringify({ ids: ["a"], extra: 1 }),
        type: "application/json"
      }),
      400,
      /^extra is not a field this endpoint takes$/,
      /#400$/
    )
  })

  it("401, plan-gate 403 and 400 share the shape, gates with their extra fields", async () => {
    uniform(
      await send("GET", "/api/v1/events", { headers: { "X-API-Key": "" } }),
      401,
      /API key required/,
      /^\/docs\/authentication$/
    )
    const free = (await rt.runPromise(createKey({ plan: "free", email: "errors-free@example.com" }))).key
    const gate = await send("GET", "/api/v1/analytics/history/ev_x", { headers: { "X-API-Key": free } })
    uniform(gate, 403, /analytics are available on Pro/, /^\/docs\/plans#plan_analytics$/)
    expect(gate.body).toMatchObject({ code: "plan_analytics", plan: "free", plan_name: expect.any(String) })
    uniform(await send("GET", "/api/v1/events?limit=abc"), 400, /^limit must be a whole number/, /#400$/)
  })
})
