import { SqlClient } from "@effect/sql"
import { Effect, Fiber, Layer, ManagedRuntime } from "effect"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { createKey } from "../../../infra/admin/keys.js"
import { PipelineServices } from "../../../pipeline/PipelineLive.js"
import { defaultConsumerOptions, runConsumer } from "../../../pipeline/stages/ConsumerLoop.js"
import { RedisStreams } from "../../../shared/bus/RedisStreams.js"
import { Redis } from "../../../shared/db/Redis.js"
import type { Change } from "../../../shared/domain/Change.js"
import { circuitKey } from "../../../shared/sources/pollState.js"
import { changeScript, observation } from "../../support/changes.js"
import { makeTestEnv } from "../../support/harness.js"
import { groupDrained, publish, waitUntil } from "../../support/stream.js"

/**
 * The runbook's recovery commands (docs/OPERATIONS.md), each run as an operator runs it (the
 * admin CLI in its own process) against this test's database and Redis prefix.
 */
const env = makeTestEnv()
const rt = ManagedRuntime.make(PipelineServices.pipe(Layer.provideMerge(env.layer)))
const run = <A, E>(e: Effect.Effect<A, E, any>) => rt.runPromise(e as Effect.Effect<A, E, never>)
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

const root = fileURLToPath(new URL("../../..", import.meta.url))
const admin = async (...args: Array<string>) => {
  const r = await promisify(execFile)(process.execPath, ["--import", "tsx", "infra/admin/cli.ts", ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: env.dbUrl, REDIS_URL: env.redisUrl, REDIS_PREFIX: env.prefix }
  }).catch((e: { code: number; stdout: string; stderr: string }) => ({ ...e, failed: e.code }))
  return { out: JSON.parse(r.stdout || "null"), failed: "failed" in r ? r.failed : 0, stderr: r.stderr }
}

describe("runbook commands", () => {
  it("--help prints the usage and exits 0; a mistyped option says which, with the usage, and exits 2 without a stack trace", async () => {
    const raw = (...args: Array<string>) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "infra/admin/cli.ts", ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: env.dbUrl }
      }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e
      )
    for (const args of [["--help"], ["keys", "create", "--help"], ["network", "import-clearances", "-h"]]) {
      const help = await raw(...args)
      expect(help.code, args.join(" ")).toBe(0)
      expect(help.stdout).toContain("npm run -s admin -- keys create --plan")
    }
    const typo = await raw("keys", "create", "--plan", "pro", "--emial", "x@example.com")
    expect(typo.code).toBe(2)
    expect(typo.stderr).toMatch(/^error: Unknown option '--emial'/)
    expect(typo.stderr).toContain("usage:")
    expect(typo.stderr).not.toMatch(/\n\s+at /)
  }, 60_000)

  it("SourceCircuitOpen: lists circuits, and reset-circuit closes an open one so the next poll reaches the feed", async () => {
    await run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const redis = yield* Redis
        yield* sql`INSERT INTO sources (id, adapter, jurisdiction, url, poll_interval_s) VALUES ('rb-down', 'wzdx', 'IA', 'http://127.0.0.1:9/a', 60), ('rb-fine', 'wzdx', 'IA', 'http://127.0.0.1:9/b', 60)`
        yield* redis.use("circuit", (c) =>
          c.set(
            circuitKey(redis, "rb-down"),
            JSON.stringify({ failures: 6, openUntil: Date.now() + 900_000, cooldownMs: 900_000 })
          )
        )
      })
    )
    const before = await admin("sources", "circuits")
    expect(before.out).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: "rb-down", circuit: "open", failures: 6, open_until: expect.any(String) }),
        expect.objectContaining({ source: "rb-fine", circuit: "closed", open_until: null })
      ])
    )
    const reset = await admin("sources", "reset-circuit", "--source", "rb-down")
    expect(reset.out).toEqual({ reset: true, source: "rb-down", was_recorded: true })
    expect(await run(Effect.flatMap(Redis, (r) => r.use("get", (c) => c.get(circuitKey(r, "rb-down")))))).toBeNull()
    expect(
      (await admin("sources", "circuits")).out.find((s: { source: string }) => s.source === "rb-down").circuit
    ).toBe("closed")
    // a source that does not exist is refused, with a non-zero exit
    const unknown = await admin("sources", "reset-circuit", "--source", "rb-nowhere")
    expect(unknown.failed).not.toBe(0)
    expect(unknown.out.reason).toContain("no source rb-nowhere")
  }, 60_000)

  it("MessagesDeadLettered: lists dead letters, and replay sends one back through the group that failed it only", async () => {
    const [good, poison] = changeScript("rb-feed", [[observation("rb-1"), observation("rb-2")]])
    const seen: Record<string, Array<string>> = { materialize: [], analytics: [] }
    const record = (group: string) => (changes: ReadonlyArray<Change>) =>
      Effect.sync(() => void seen[group].push(...changes.map((c) => c.change_id)))
    // both groups read everything; "analytics" then dead-letters the poison change as its stage would
    await run(
      Effect.gen(function* () {
        const streams = yield* RedisStreams
        yield* streams.ensureGroup("materialize")
        yield* streams.ensureGroup("analytics")
        yield* publish([good, poison])
      })
    )
    // the analytics stage fails the poison change until its cause is mended
    let mended = false
    const consumers = await run(
      Effect.all([
        Effect.forkDaemon(
          runConsumer({ ...defaultConsumerOptions("materialize", "m1"), blockMs: 100 }, record("materialize"))
        ),
        Effect.forkDaemon(
          runConsumer({ ...defaultConsumerOptions("analytics", "a1"), blockMs: 100, maxDeliveries: 1 }, (changes) =>
            !mended && changes.some((c) => c.change_id === poison.change_id)
              ? Effect.fail("poison")
              : record("analytics")(changes)
          )
        )
      ])
    )
    try {
      await run(
        waitUntil(Effect.map(Effect.all([groupDrained("materialize"), groupDrained("analytics")]), ([a, b]) => a && b))
      )
      expect(seen.materialize).toEqual([good.change_id, poison.change_id])
      expect(seen.analytics).toEqual([good.change_id])

      const listed = await admin("streams", "dead-letters", "--group", "analytics")
      expect(listed.out).toEqual([
        expect.objectContaining({
          group: "analytics",
          change_id: poison.change_id,
          cause: expect.stringContaining("poison")
        })
      ])
      expect((await admin("streams", "dead-letters", "--group", "materialize")).out).toEqual([])

      mended = true
      const replay = await admin("streams", "replay", "--entry", listed.out[0].entry)
      expect(replay.out).toMatchObject({ replayed: true, group: "analytics", change_id: poison.change_id })
      await run(
        waitUntil(Effect.map(Effect.all([groupDrained("materialize"), groupDrained("analytics")]), ([a, b]) => a && b))
      )
      // analytics applied it this time; materialize, which had it already, acknowledged it unread
      expect(seen.analytics).toEqual([good.change_id, poison.change_id])
      expect(seen.materialize).toEqual([good.change_id, poison.change_id])
      expect((await admin("streams", "dead-letters")).out).toEqual([])
      // an entry that is not there is refused
      const again = await admin("streams", "replay", "--entry", listed.out[0].entry)
      expect(again.failed).not.toBe(0)
      expect(again.out.reason).toContain("no dead letter")
    } finally {
      await run(Fiber.interruptAll(consumers))
    }
  }, 90_000)

  it("WebhookSubscriptionsDisabled: enable switches a subscription the dispatcher turned off back on", async () => {
    const { customerId } = await run(createKey({ plan: "pro", email: "runbook@example.com" }))
    await run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`
      INSERT INTO webhook_subscriptions (id, customer_id, url, secret_enc, secret_hint, jurisdictions, match_jurisdictions, is_enabled, disabled_reason, disabled_at, consecutive_failures)
      VALUES ('whk_runbook', ${customerId}, 'https://example.com/hook', decode('00', 'hex'), 'x', '{IA}', '{IA}', false, 'failures', now(), 10)`
      )
    )
    const r = await admin("webhooks", "enable", "--email", "runbook@example.com", "--id", "whk_runbook")
    expect(r.failed, r.stderr).toBe(0)
    const [row] = await run(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ is_enabled: boolean; disabled_reason: string | null; consecutive_failures: number }>`
      SELECT is_enabled, disabled_reason, consecutive_failures FROM webhook_subscriptions WHERE id = 'whk_runbook'`
      )
    )
    expect(row).toEqual({ is_enabled: true, disabled_reason: null, consecutive_failures: 0 })
  }, 60_000)
})
