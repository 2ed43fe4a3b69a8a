import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime } from "effect"
import { createClient } from "redis"
import { afterAll, describe, expect, it } from "vitest"
import { createKey } from "../../infra/admin/keys.js"
import { MaterializedStream } from "../../shared/bus/RedisStreams.js"
import { PipelineServices } from "../../pipeline/PipelineLive.js"
import { WEBHOOKS_GROUP, WebhooksLive } from "../../pipeline/stages/webhooks/WebhookStage.js"
import { Redis } from "../../shared/db/Redis.js"
import { createSubscription } from "../../shared/webhooks/subscriptions.js"
import { changeScript, observation } from "../support/changes.js"
import { makeTestEnv } from "../support/harness.js"
import { startReceiver } from "../support/receiver.js"
import { waitFor } from "../support/wait.js"

/**
 * A retry that is pending when every process stops — and Redis comes back empty, as it does
 * without persistence — is still delivered, on schedule and with the same id, by the next start.
 */
const env = makeTestEnv({ webhookAllowPrivateTargets: true })
const stage = () =>
  ManagedRuntime.make(WebhooksLive("restart").pipe(Layer.provideMerge(PipelineServices), Layer.provideMerge(env.layer)))
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined

afterAll(async () => {
  await receiver?.close()
  await env.cleanup()
})

const deliveryState = (rt: ReturnType<typeof stage>) =>
  rt.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql<{
          id: string
          status: string
          attempts: number
          next_attempt_at: string | null
        }>`SELECT id, status, attempts, next_attempt_at FROM webhook_deliveries`
    )
  )

describe("webhook retries across a full restart", () => {
  it("a pending retry survives every process and an emptied Redis, and goes out when due with the same id", async () => {
    const r = (receiver = await startReceiver())
    let answer = 500
    r.setRespond((_req, res) => {
      res.writeHead(answer)
      res.end()
    })
    const first = stage()
    await first.runPromise(
      Effect.gen(function* () {
        yield* createKey({ plan: "pro", email: "restart@example.com" })
        const sql = yield* SqlClient.SqlClient
        const [{ id }] = yield* sql<{ id: number }>`SELECT id FROM customers WHERE email = 'restart@example.com'`
        yield* createSubscription(id, { url: r.url("/restart"), jurisdiction: ["NY"] })
        const streams = yield* MaterializedStream
        const redis = yield* Redis
        yield* streams.ensureGroup(WEBHOOKS_GROUP, "$")
        const [change] = changeScript("restart", [[observation("r1")]])
        yield* redis.use("xadd", (c) => c.xAdd(streams.streamKey, "*", { c: JSON.stringify(change) }))
      })
    )
    await waitFor(async () => (await deliveryState(first)).some((d) => d.attempts === 1), 20_000)
    const [pending] = await deliveryState(first)
    expect(pending.status).toBe("pending")
    const dueAt = Date.parse(pending.next_attempt_at!)
    await first.dispose()

    // Redis restarted without persistence: nothing of ours is left in it
    const redis = createClient({ url: env.redisUrl })
    await redis.connect()
    for await (const keys of redis.scanIterator({ MATCH: `${env.prefix}:*`, COUNT: 1000 })) {
      const batch = Array.isArray(keys) ? keys : [keys]
      if (batch.length > 0) await redis.del(batch)
    }
    await redis.quit()

    answer = 200
    const second = stage()
    await second.runtime()
    await waitFor(async () => (await deliveryState(second))[0].status === "succeeded", 30_000)
    const [done] = await deliveryState(second)
    expect(done).toMatchObject({ id: pending.id, status: "succeeded", attempts: 2 })
    const hits = r.received.filter((q) => q.path === "/restart")
    expect(hits.map((q) => q.headers["x-webhook-id"])).toEqual([pending.id, pending.id])
    // not before its retry was due
    expect(hits[1].at).toBeGreaterThanOrEqual(dueAt)
    await second.dispose()
  }, 60_000)
})
