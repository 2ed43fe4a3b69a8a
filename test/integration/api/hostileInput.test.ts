import { SqlClient } from "@effect/sql"
import fc from "fast-check"
import { Effect, Layer, ManagedRuntime } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { diffFeaturePoll } from "../../../pipeline/diff/FeatureDiffer.js"
import { applyChanges } from "../../../pipeline/stages/materialize/applyChanges.js"
import { changeScript, feature, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"

/**
 * Random and malicious query strings, headers and bodies against every endpoint over real HTTP:
 * never a 500, never internals in a body, and the documented 4xx for what is wrong.
 */
const env = makeTestEnv()
let port = 0
const rt = ManagedRuntime.make(
  ApiServerLive({ port: 0, onListen: (p) => (port = p) }).pipe(Layer.provideMerge(env.layer))
)
const keys: Record<string, string> = {}

beforeAll(async () => {
  await rt.runtime()
  await rt.runPromise(applyChanges(changeScript("fz", [[observation("a"), observation("b", { jurisdiction: "NJ" })]])))
  const at = new Date()
  await rt.runPromise(
    applyChanges(
      diffFeaturePoll({
        source: "fzf",
        polledAt: at,
        now: at,
        presentIds: [],
        prev: new Map(),
        records: [feature("c")]
      }).changes
    )
  )
  for (const plan of ["free", "pro"])
    keys[plan] = (
      await rt.runPromise(createKey({ plan, email: `${plan}@fuzz.example.com`, rateLimitRpm: 1_000_000 }))
    ).key
})
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const GET_PATHS = [
  "/events",
  "/events/geojson",
  "/events/{id}",
  "/features",
  "/features/geojson",
  "/features/types",
  "/features/groups",
  "/features/{id}/details",
  "/analytics/history/{id}",
  "/jurisdictions",
  "/jurisdictions/groups",
  "/coverage",
  "/coverage/{id}",
  "/data-sources",
  "/stats/summary",
  "/fuel-prices",
  "/status",
  "/health",
  "/openapi.json",
  "/truck/corridor",
  "/truck/corridor/geojson",
  "/webhooks",
  "/webhooks/{id}",
  "/webhooks/{id}/deliveries",
  "/plans",
  "/account"
]
const PARAMS = [
  "ids",
  "jurisdiction",
  "type",
  "group",
  "sub_type",
  "cause",
  "severity",
  "status",
  "road",
  "lat",
  "lng",
  "radius_km",
  "bbox",
  "limit",
  "offset",
  "cursor",
  "active",
  "starts_after",
  "starts_before",
  "ends_after",
  "ends_before",
  "updated_after",
  "updated_before",
  "scope",
  "country",
  "fuel_type",
  "latest",
  "api_key",
  "zzz",
  "from_lat",
  "from_lng",
  "to_lat",
  "to_lng",
  "buffer_km",
  "height",
  "weight"
]
const NASTY = [
  "' OR 1=1 --",
  "1; DROP TABLE events; --",
  '"; SELECT pg_sleep(5); --',
  "%",
  "_",
  "\\",
  "%00",
  "\u0000",
  "\u202e",
  "😀",
  "NaN",
  "Infinity",
  "-Infinity",
  "-1",
  "0",
  "-0",
  "1e309",
  "1e-309",
  "99999999999999999999999",
  "0x10",
  "1_000",
  " 5 ",
  "",
  "1,2,3",
  "a,b,c,d",
  "-200,-100,200,100",
  "10,10,-10,-10",
  "NaN,NaN,NaN,NaN",
  ",,,,,,",
  "eyJrIjoxfQ.AAAA",
  "....",
  "2026-13-45",
  "2026-02-30T25:61:00Z",
  "yesterday",
  "true",
  "TRUE",
  "null",
  "undefined",
  "[]",
  "{}",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%2e%2e%2f",
  "x".repeat(2500),
  Array.from({ length: 500 }, (_, i) => `v${i}`).join(",")
]
const LEAKS = [
  /\bat [\w.<>]+ \(/,
  /\.ts:\d+/,
  /node_modules/,
  /SqlError/,
  /syntax error at/i,
  /\bSELECT\b/,
  /\brelation "/,
  /ECONNREFUSED/,
  /postgres:\/\//
]

const send = async (method: string, path: string, headers: Record<string, string>, body?: string | Blob) => {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, { method, headers, body })
  const text = await res.text()
  return { status: res.status, text, type: res.headers.get("content-type") ?? "" }
}

/** `what` is the request as sent: a pattern it holds itself may be echoed back (e.g. "no event with id …"). */
const assertSafe = (r: { status: number; text: string; type: string }, what: string, input = what) => {
  expect(r.status, `${what}: ${r.text.slice(0, 300)}`).not.toBe(500)
  expect([200, 201, 202, 204, 400, 401, 403, 404, 405, 413, 415, 429, 503], `${what}: ${r.status}`).toContain(r.status)
  let sent = input
  try {
    sent = decodeURIComponent(input)
  } catch {
    /* keep it raw */
  }
  for (const leak of LEAKS) if (!leak.test(sent)) expect(r.text, `${what} leaks ${leak}`).not.toMatch(leak)
  if (r.status >= 400) {
    // SPEC §2.7 for every error, 405 and parser errors included
    expect(r.type, what).toMatch(/json/)
    const body = JSON.parse(r.text)
    expect(typeof body.error, what).toBe("string")
    expect(body.docs_url, what).toMatch(/^\/docs\//)
  }
}

const nasty = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
  fc.double().map(String)
)
const query = fc
  .array(fc.tuple(fc.constantFrom(...PARAMS), nasty), { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"))

describe("hostile input", () => {
  it("random and malicious query strings on every GET endpoint never give a 500 or leak internals", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...GET_PATHS),
        nasty,
        query,
        fc.constantFrom("free", "pro"),
        async (template, id, qs, plan) => {
          const path = template.replace("{id}", encodeURIComponent(id).replace(/%2F/gi, "_") || "x")
          const r = await send("GET", `${path}?${qs}`, { "X-API-Key": keys[plan] })
          assertSafe(r, `GET ${path}?${qs}`)
        }
      ),
      { numRuns: 400 }
    )
  }, 120_000)

  it("hostile headers: garbage keys are 401, odd origins and content types are handled", async () => {
    await fc.assert(
      fc.asyncProperty(
        nasty,
        fc.constantFrom("X-API-Key", "Origin", "Content-Type", "If-None-Match", "Accept"),
        async (value, header) => {
          const safe = value.replace(/[^\t\x20-\x7e]/g, "?")
          const headers: Record<string, string> =
            header === "X-API-Key" ? { "X-API-Key": safe } : { "X-API-Key": keys.pro, [header]: safe }
          const r = await send("GET", "/events?limit=1", headers)
          assertSafe(r, `${header}: ${safe}`)
          if (header === "X-API-Key") expect(r.status).toBe(401)
        }
      ),
      { numRuns: 150 }
    )
  }, 60_000)

  it("bad bodies: malformed JSON, wrong shapes, deep nesting and 1 MB+ bodies", async () => {
    const post = (body: string | Blob, type = "application/json") =>
      send("POST", "/features/details/batch", { "X-API-Key": keys.pro, "Content-Type": type }, body)
    const cases: Array<[string | Blob, number]> = [
      ["{", 400],
      ["not json", 400],
      ["null", 400],
      ["[]", 400],
      ['{"ids": "x"}', 400],
      ['{"ids": [1, 2]}', 400],
      ['{"ids": []}', 400],
      ['{"ids": [null]}', 400],
      ["[".repeat(5000) + "]".repeat(5000), 400],
      [JSON.stringify({ ids: ["x".repeat(10_000)] }), 400],
      ['{"ids":["a\\u0000b"]}', 400],
      [new Blob(["a".repeat(1024 * 1024 + 10)]), 413],
      [JSON.stringify({ ids: Array.from({ length: 200_000 }, (_, i) => `ft_${i}`) }), 413]
    ]
    for (const [body, status] of cases) {
      const r = await post(body)
      assertSafe(r, `body ${String(body).slice(0, 40)}`)
      expect(r.status, `body ${String(body).slice(0, 40)}`).toBe(status)
    }
    assertSafe(await post('{"ids":["a"]}', "text/plain"), "text/plain body")
    expect((await send("GET", "/events/a%00b", { "X-API-Key": keys.pro })).status).toBe(400)
    // echoed non-ASCII input in a warning header once threw in node's setHeader (found by the property above)
    const rtl = await fetch(`http://127.0.0.1:${port}/api/v1/events/geojson?type=%E2%80%AE`, {
      headers: { "X-API-Key": keys.pro }
    })
    expect(rtl.status).toBe(200)
    expect(rtl.headers.get("x-jurisdiction-warning")).toContain("\\u202e")
    expect((await send("GET", "/events?road=%E0%A4%A", { "X-API-Key": keys.pro })).status).toBe(400)
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.json(), fc.string()), async (body) =>
        assertSafe(await post(body), `fuzz body ${body.slice(0, 40)}`, body)
      ),
      { numRuns: 150 }
    )
    // webhook management takes bodies too: random and half-valid subscriptions
    const sub = fc.record(
      {
        url: fc.oneof(nasty, fc.constant("http://127.0.0.1:9/h"), fc.webUrl()),
        jurisdiction: fc.oneof(nasty, fc.array(nasty, { maxLength: 3 }), fc.constant(["NY"])),
        type: fc.oneof(nasty, fc.array(nasty, { maxLength: 3 })),
        batch_window_seconds: fc.oneof(fc.integer(), fc.double(), fc.constant(null), nasty)
      },
      { requiredKeys: [] }
    )
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          sub.map((x) => JSON.stringify(x)),
          fc.json()
        ),
        fc.constantFrom("POST /webhooks", "PATCH /webhooks/whk_x"),
        async (body, target) => {
          const [method, path] = target.split(" ")
          const r = await send(method, path, { "X-API-Key": keys.pro, "Content-Type": "application/json" }, body)
          assertSafe(r, `${target} ${body.slice(0, 80)}`, body)
        }
      ),
      { numRuns: 150 }
    )
  }, 60_000)

  it("answers 429 with Retry-After once a key's budget is spent, and the request after is still safe", async () => {
    const k = (await rt.runPromise(createKey({ plan: "pro", email: "tiny@fuzz.example.com", rateLimitRpm: 2 }))).key
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await send("GET", "/events?limit=1", { "X-API-Key": k })).status)
    expect(statuses).toEqual([200, 200, 429])
  })
})

describe("no SQL is built from input", () => {
  it("every sql.unsafe / sql.literal in the API takes constants only", () => {
    const files = (dir: string): Array<string> =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? files(`${dir}/${d.name}`) : d.name.endsWith(".ts") ? [`${dir}/${d.name}`] : []
      )
    const offenders: Array<string> = []
    for (const file of files("api")) {
      const text = readFileSync(file, "utf8")
      for (const m of text.matchAll(/sql\.(unsafe|literal)\(([^)]*)\)/g)) {
        // allowed: a module constant (UPPER_CASE) or a template that only interpolates a validated H3 resolution
        if (!/^[A-Z_]+$/.test(m[2].trim()) && !/^`h3_r\$\{cover\.res\}`$/.test(m[2].trim()))
          offenders.push(`${file}: ${m[0]}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it("a quote in a filter is data, not SQL: the events table is intact", async () => {
    const r = await send("GET", `/events?road=${encodeURIComponent("x'); DELETE FROM events; --")}`, {
      "X-API-Key": keys.pro
    })
    expect(r.status).toBe(200)
    const [{ n }] = await rt.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM events`)
    )
    expect(n).toBe(2)
  })
})
