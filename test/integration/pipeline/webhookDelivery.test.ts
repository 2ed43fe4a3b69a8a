import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { createHmac } from "node:crypto"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiServerLive } from "../../../api/server.js"
import { createKey } from "../../../infra/admin/keys.js"
import { MaterializedStream } from "../../../shared/bus/RedisStreams.js"
import { PipelineServices } from "../../../pipeline/PipelineLive.js"
import { publishOnce } from "../../../pipeline/metrics/MetricsPublisher.js"
import { WEBHOOKS_GROUP, WebhooksLive } from "../../../pipeline/stages/webhooks/WebhookStage.js"
import type { EventChange } from "../../../shared/domain/Change.js"
import { Redis } from "../../../shared/db/Redis.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { waitFor } from "../../support/wait.js"
import { api } from "../../support/http.js"
import { type Received, type Receiver, startReceiver } from "../../support/receiver.js"
import { webhooksSettled } from "../../support/webhooksSettled.js"

/**
 * Changes on the real materialized stream (as the materializer passes them on) → the `webhooks` group → Postgres →
 * signed POSTs to a real receiver
 * on loopback: immediate and batched forms exactly as SPEC §6, filters, both signatures.
 */
const env = makeTestEnv({ webhookAllowPrivateTargets: true, metricsToken: Redacted.make("m") })
let port = 0
const rt = ManagedRuntime.make(
  Layer.mergeAll(ApiServerLive({ port: 0, onListen: (p) => (port = p) }), WebhooksLive("wh-test")).pipe(
    Layer.provideMerge(PipelineServices),
    Layer.provideMerge(env.layer)
  )
)
let receiver: Receiver
let call: ReturnType<typeof api>
const subs: Record<string, { id: string; secret: string }> = {}
const json = (method: string, body: unknown) => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body)
})

const publish = (changes: ReadonlyArray<EventChange>) =>
  rt.runPromise(
    Effect.gen(function* () {
      const streams = yield* MaterializedStream
      const redis = yield* Redis
      yield* streams.ensureGroup(WEBHOOKS_GROUP, "$")
      yield* redis.use("xadd", async (c) => {
        const m = c.multi()
        for (const ch of changes) m.xAdd(streams.streamKey, "*", { c: JSON.stringify(ch) })
        await m.exec()
      })
    })
  )

const forSub = (name: string) => receiver.received.filter((r) => r.path === `/${name}`)
const bodies = (name: string) => forSub(name).map((r) => JSON.parse(r.body))

beforeAll(async () => {
  receiver = await startReceiver()
  await rt.runtime()
  const { key } = await rt.runPromise(createKey({ plan: "pro", email: "deliveries@example.com" }))
  call = api(`http://127.0.0.1:${port}/api/v1`, key)
  const make = async (name: string, body: Record<string, unknown>) => {
    const r = await call("/webhooks", json("POST", { url: receiver.url(`/${name}`), ...body }))
    expect(r.status).toBe(201)
    subs[name] = { id: r.body.id, secret: r.body.secret }
  }
  await make("all-ny", { jurisdiction: ["NY"] })
  await make("accidents", { jurisdiction: ["NY", "NJ"], cause: ["accident"] })
  await make("nj-closures", { jurisdiction: ["NJ"], type: ["closure"], severity: ["major", "critical"] })
  await make("bc-batch", { jurisdiction: ["BC"], batch_window_seconds: 1 })
  await make("on-batch", { jurisdiction: ["ON"], batch_window_seconds: 2 })
  await make("quiet", { jurisdiction: ["TX"] })

  const script = changeScript("wh", [
    [
      observation("a", { type: "incident", cause: "accident", severity: "minor", affected_roads: ["I-87"] }),
      observation("b", { type: "construction", cause: "roadwork", sub_type: "Paving", severity: "moderate" }),
      observation("c", { jurisdiction: "NJ", type: "closure", cause: "flood", severity: "major" }),
      observation("d", { jurisdiction: "NJ", type: "incident", cause: "accident", severity: "minor" }),
      observation("e", { jurisdiction: "NJ", type: "incident", cause: "vehicle_breakdown", severity: "critical" })
    ],
    [
      observation("a", { type: "incident", cause: "accident", severity: "major", affected_roads: ["I-87"] }),
      observation("c", {
        jurisdiction: "NJ",
        type: "closure",
        cause: "flood",
        severity: "major",
        lanes_affected: "2 lanes"
      }),
      observation("d", { jurisdiction: "NJ", type: "incident", cause: "accident", severity: "minor" }),
      observation("e", { jurisdiction: "NJ", type: "incident", cause: "vehicle_breakdown", severity: "critical" })
    ]
  ])
  const bc = changeScript("wh-bc", [[0, 1, 2].map((i) => observation(`bc${i}`, { jurisdiction: "BC" }))])
  const on = changeScript("wh-on", [
    Array.from({ length: 250 }, (_, i) => observation(`on${i}`, { jurisdiction: "ON" }))
  ])
  await publish([...script, ...bc, ...on])
  await waitFor(
    () =>
      forSub("all-ny").length >= 5 &&
      forSub("accidents").length >= 3 &&
      forSub("nj-closures").length >= 1 &&
      forSub("bc-batch").length >= 1 &&
      forSub("on-batch").length >= 3
  )
  // nothing that should not come is still on its way
  await waitFor(() => rt.runPromise(webhooksSettled))
}, 60_000)

afterAll(async () => {
  await rt.dispose()
  await receiver.close()
  await env.cleanup()
})

const DATA_KEYS = ["event_id", "jurisdiction", "type", "sub_type", "cause", "severity", "road_name", "quality_flags"]

describe("webhook deliveries", () => {
  it("immediate form: one POST per change, exactly {event, timestamp, data}, changes on severity changes", () => {
    const ny = bodies("all-ny")
    expect(ny.map((b) => b.event).sort()).toEqual([
      "event.archived",
      "event.created",
      "event.created",
      "event.severity_change",
      "event.status_change"
    ])
    for (const b of ny) {
      expect(Object.keys(b).sort()).toEqual(["data", "event", "timestamp"])
      expect(Number.isNaN(Date.parse(b.timestamp))).toBe(false)
      const keys = b.event === "event.severity_change" ? [...DATA_KEYS, "changes"] : DATA_KEYS
      expect(Object.keys(b.data).sort()).toEqual([...keys].sort())
    }
    const sev = ny.find((b) => b.event === "event.severity_change")
    expect(sev.data).toMatchObject({
      jurisdiction: "NY",
      type: "incident",
      cause: "accident",
      severity: "major",
      road_name: "I-87",
      changes: { old_severity: "minor", new_severity: "major" }
    })
    const created = ny
      .filter((b) => b.event === "event.created")
      .map((b) => b.data.severity)
      .sort()
    expect(created).toEqual(["minor", "moderate"])
    expect(ny.find((b) => b.event === "event.archived").data.type).toBe("construction")
  })

  it("filters AND across dimensions, OR within; cause matches across types; nothing for non-matching changes", () => {
    // accidents: a created, a severity_change (NY) and d created (NJ) — whatever their type
    expect(
      bodies("accidents")
        .map((b) => `${b.event}:${b.data.jurisdiction}`)
        .sort()
    ).toEqual(["event.created:NJ", "event.created:NY", "event.severity_change:NY"])
    // NJ closures of major or critical severity: c only (e is critical but an incident; c's lane change fires nothing)
    expect(bodies("nj-closures").map((b) => `${b.event}:${b.data.type}:${b.data.severity}`)).toEqual([
      "event.created:closure:major"
    ])
    expect(forSub("quiet")).toEqual([])
  })

  it("batched form: batch{window_seconds, started_at, ended_at, event_count} + events[], at most 100 per POST", () => {
    const [bc] = bodies("bc-batch")
    expect(Object.keys(bc).sort()).toEqual(["batch", "events"])
    expect(bc.batch).toMatchObject({ window_seconds: 1, event_count: 3 })
    expect(Date.parse(bc.batch.ended_at) - Date.parse(bc.batch.started_at)).toBe(1000)
    expect(bc.events.map((e: any) => e.event)).toEqual(["event.created", "event.created", "event.created"])
    for (const e of bc.events) expect(Object.keys(e).sort()).toEqual(["data", "event", "timestamp"])
    const on = bodies("on-batch")
    expect(on.map((b) => b.batch.event_count).sort((x, y) => y - x)).toEqual([100, 100, 50])
    expect(new Set(on.map((b) => `${b.batch.started_at}|${b.batch.ended_at}|${b.batch.window_seconds}`)).size).toBe(1)
    expect(new Set(on.flatMap((b) => b.events.map((e: any) => e.data.event_id))).size).toBe(250)
  })

  it("signs every POST: X-Webhook-Signature byte for byte, and Standard Webhooks headers the standardwebhooks verifier accepts", () => {
    const all: Array<[string, Received]> = Object.keys(subs).flatMap((name) =>
      forSub(name).map((r) => [name, r] as [string, Received])
    )
    expect(all.length).toBeGreaterThan(10)
    for (const [name, r] of all) {
      const secret = subs[name].secret
      expect(r.headers["x-webhook-signature"]).toBe(
        createHmac("sha256", secret).update(Buffer.from(r.body, "utf8")).digest("hex")
      )
      expect(r.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/)
      expect(r.headers["x-webhook-id"]).toMatch(/^whd_/)
      expect(r.headers["webhook-id"]).toBe(r.headers["x-webhook-id"])
      expect(Math.abs(Number(r.headers["x-webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(120)
      const verified = new Webhook(secret).verify(r.body, {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"])
      })
      expect(verified).toEqual(JSON.parse(r.body))
      expect(() =>
        new Webhook(secret).verify(r.body + " ", {
          "webhook-id": String(r.headers["webhook-id"]),
          "webhook-timestamp": String(r.headers["webhook-timestamp"]),
          "webhook-signature": String(r.headers["webhook-signature"])
        })
      ).toThrow()
    }
  })

  it("records each delivery with its attempts; the test delivery goes out at once and is never recorded", async () => {
    // attempts are recorded in batches just after the receiver answers
    await waitFor(
      async () => (await call(`/webhooks/${subs["all-ny"].id}/deliveries?status=succeeded`)).body.total === 5,
      10_000
    )
    const list = await call(`/webhooks/${subs["all-ny"].id}/deliveries`)
    expect(list.body.total).toBe(5)
    for (const d of list.body.data) {
      expect(d).toMatchObject({ status: "succeeded", attempts: 1, last_status_code: 200, next_attempt_at: null })
      expect(d.history).toEqual([
        expect.objectContaining({ attempt: 1, status_code: 200, error: null, latency_ms: expect.any(Number) })
      ])
    }
    const before = forSub("all-ny").length
    const test = await call(`/webhooks/${subs["all-ny"].id}/test`, { method: "POST" })
    expect(test.body).toMatchObject({ delivered: true, status_code: 200 })
    expect(forSub("all-ny")).toHaveLength(before + 1)
    const t = forSub("all-ny").at(-1)!
    expect(JSON.parse(t.body).event).toBe("test")
    expect(t.headers["x-webhook-signature"]).toBe(
      createHmac("sha256", subs["all-ny"].secret).update(t.body).digest("hex")
    )
    expect((await call(`/webhooks/${subs["all-ny"].id}/deliveries`)).body.total).toBe(5)
  })

  it("lists dead deliveries and replays them with the same id, from the API and from the CLI", async () => {
    const sub = subs["all-ny"].id
    const [one, two] = (await call(`/webhooks/${sub}/deliveries`)).body.data.map((d: any) => d.id)
    // as if their retries had run out
    await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`UPDATE webhook_deliveries SET status = 'dead' WHERE id IN (${one}, ${two})`
      )
    )
    const dead = await call(`/webhooks/${sub}/deliveries?status=dead`)
    expect(dead.body.data.map((d: any) => d.id).sort()).toEqual([one, two].sort())
    expect((await call(`/webhooks/${sub}/deliveries?status=weird`)).status).toBe(400)
    const replay = await call(`/webhooks/${sub}/deliveries/${one}/replay`, { method: "POST" })
    expect(replay.status).toBe(202)
    expect(replay.body).toEqual({ id: one, status: "pending" })
    expect((await call(`/webhooks/${sub}/deliveries/whd_nope/replay`, { method: "POST" })).status).toBe(404)
    await promisify(execFile)(
      process.execPath,
      [
        "--import",
        "tsx",
        "infra/admin/cli.ts",
        "webhooks",
        "replay",
        "--email",
        "deliveries@example.com",
        "--id",
        sub,
        "--delivery",
        two
      ],
      {
        cwd: fileURLToPath(new URL("../../..", import.meta.url)),
        env: { ...process.env, DATABASE_URL: env.dbUrl, REDIS_URL: env.redisUrl, REDIS_PREFIX: env.prefix }
      }
    )
    await waitFor(
      () =>
        forSub("all-ny").filter((r) => r.headers["x-webhook-id"] === one || r.headers["x-webhook-id"] === two).length >=
        4
    )
    // the attempt is recorded just after the receiver answers
    let replayed: Array<any> = []
    for (let i = 0; i < 200; i++) {
      replayed = (await call(`/webhooks/${sub}/deliveries`)).body.data.filter((x: any) => x.id === one || x.id === two)
      if (replayed.every((d) => d.status === "succeeded")) break
      await new Promise((r) => setTimeout(r, 25))
    }
    for (const d of replayed) expect(d).toMatchObject({ status: "succeeded", attempts: 2 })
  }, 30_000)

  it("counts deliveries by outcome in webhook_deliveries_total and shows the group's lag at /metrics", async () => {
    await rt.runPromise(publishOnce("wh-test"))
    const text = await (
      await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { Authorization: "Bearer m" } })
    ).text()
    expect(text).toMatch(/webhook_deliveries_total\{outcome="succeeded",worker="wh-test"\} \d+/)
    expect(text).toMatch(/stage_lag_messages\{group="webhooks"\} 0/)
  })
})
