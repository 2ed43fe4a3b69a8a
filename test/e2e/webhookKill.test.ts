import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { createKey } from "../../infra/admin/keys.js"
import { MaterializedStream } from "../../shared/bus/RedisStreams.js"
import { WEBHOOKS_GROUP } from "../../pipeline/stages/webhooks/WebhookStage.js"
import { Redis } from "../../shared/db/Redis.js"
import { createSubscription } from "../../shared/webhooks/subscriptions.js"
import { changeScript, observation } from "../support/changes.js"
import { processWorld } from "../support/processes.js"
import { waitFor } from "../support/wait.js"
import { startReceiver } from "../support/receiver.js"
import { webhooksSettled } from "../support/webhooksSettled.js"

/**
 * A real webhook stage process is SIGKILLed while it delivers to a real receiver on loopback; a
 * second process finishes the work from what the first left in Postgres and the materialized
 * stream (published here as the materializer would).
 */
const { rt, start } = processWorld({ webhookAllowPrivateTargets: true })
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined
afterAll(async () => {
  await receiver?.close()
})

const startStage = () =>
  start("webhooks", { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "1000", WEBHOOK_CONCURRENCY: "8" })

describe("webhook stage killed mid-batch", () => {
  it("delivers every matching change at least once after a restart, with the same delivery id on a repeat, and nothing else", async () => {
    receiver = await startReceiver()
    const r = receiver
    // slow enough that the kill lands while deliveries are in flight
    r.setRespond((_req, res) => void setTimeout(() => res.end("ok"), 15))
    const [immediate, batched] = await rt.runPromise(
      Effect.gen(function* () {
        yield* createKey({ plan: "pro", email: "kill@example.com" })
        const sql = yield* SqlClient.SqlClient
        const [{ id }] = yield* sql<{ id: number }>`SELECT id FROM customers WHERE email = 'kill@example.com'`
        const a = yield* createSubscription(id, { url: r.url("/incidents"), jurisdiction: ["NY"], type: ["incident"] })
        const b = yield* createSubscription(id, { url: r.url("/nj"), jurisdiction: ["NJ"], batch_window_seconds: 1 })
        const streams = yield* MaterializedStream
        yield* streams.ensureGroup(WEBHOOKS_GROUP, "$")
        return [a, b]
      })
    )
    const ny = Array.from({ length: 800 }, (_, i) =>
      observation(`ny${i}`, { type: i % 2 ? "incident" : "construction" })
    )
    const nj = Array.from({ length: 300 }, (_, i) => observation(`nj${i}`, { jurisdiction: "NJ" }))
    const changes = changeScript("kill", [[...ny, ...nj]])
    const eventId = new Map(changes.map((c) => [c.source_id, c.event_id]))
    const wantedNy = new Set(ny.filter((o) => o.type === "incident").map((o) => eventId.get(o.source_id)!))
    const unwanted = new Set(ny.filter((o) => o.type !== "incident").map((o) => eventId.get(o.source_id)!))
    const wantedNj = new Set(nj.map((o) => eventId.get(o.source_id)!))

    const first = startStage()
    // changes arrive while it works
    const publishing = rt.runPromise(
      Effect.gen(function* () {
        const streams = yield* MaterializedStream
        const redis = yield* Redis
        for (let i = 0; i < changes.length; i += 100) {
          yield* redis.use("xadd", async (c) => {
            const m = c.multi()
            for (const ch of changes.slice(i, i + 100)) m.xAdd(streams.streamKey, "*", { c: JSON.stringify(ch) })
            await m.exec()
          })
          yield* Effect.sleep("20 millis")
        }
      })
    )
    await waitFor(() => r.received.length >= 60)
    first.kill("SIGKILL")
    await new Promise((res) => first.once("exit", res))
    const atKill = r.received.length
    await publishing
    const state = await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql<{ pending: number }>`SELECT count(*)::int AS pending FROM webhook_deliveries WHERE status = 'pending'`
      )
    )
    expect(atKill).toBeLessThan(wantedNy.size) // it really died part-way

    startStage()
    const seen = () => {
      const nyIds = new Set<string>()
      const njIds = new Set<string>()
      for (const req of r.received) {
        const body = JSON.parse(req.body)
        if (req.path === "/incidents") nyIds.add(body.data.event_id)
        else for (const e of body.events) njIds.add(e.data.event_id)
      }
      return { nyIds, njIds }
    }
    await waitFor(() => {
      const { nyIds, njIds } = seen()
      return [...wantedNy].every((id) => nyIds.has(id)) && [...wantedNj].every((id) => njIds.has(id))
    }, 90_000)
    // nothing that should not come is still on its way
    await waitFor(() => rt.runPromise(webhooksSettled))

    const { nyIds } = seen()
    expect([...nyIds].filter((id) => unwanted.has(id))).toEqual([]) // nothing for non-matching changes
    expect(nyIds.size).toBe(wantedNy.size)
    // a repeat carries the same delivery id and the same bytes
    const byId = new Map<string, Set<string>>()
    for (const req of r.received) {
      const id = String(req.headers["x-webhook-id"])
      byId.set(id, (byId.get(id) ?? new Set()).add(req.body))
    }
    for (const [, variants] of byId) expect(variants.size).toBe(1)
    const repeats = r.received.length - byId.size
    const immediateIds = new Set(
      r.received.filter((q) => q.path === "/incidents").map((q) => String(q.headers["x-webhook-id"]))
    )
    expect(immediateIds.size).toBe(wantedNy.size)
    console.log(
      `webhook kill: ${atKill} POSTs before the kill (${state[0].pending} deliveries pending then), ${r.received.length} in all, ${repeats} repeats; subscriptions ${immediate.id}, ${batched.id}`
    )
  }, 120_000)
})
