import { SqlClient } from "@effect/sql"
import { Effect, ManagedRuntime } from "effect"
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { hashApiKey } from "../../shared/domain/ApiKey.js"
import { makeTestEnv } from "../support/harness.js"

const env = makeTestEnv()
const rt = ManagedRuntime.make(env.layer)
const root = fileURLToPath(new URL("../..", import.meta.url))
afterAll(async () => {
  await rt.dispose()
  await env.cleanup()
})

/** `npm run -s admin -- …` is `tsx infra/admin/cli.ts …`; run it as a real process. */
const admin = (...args: Array<string>) =>
  spawnSync(process.execPath, ["--import", "tsx", "infra/admin/cli.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: env.dbUrl, REDIS_URL: env.redisUrl }
  })

describe("admin CLI", () => {
  it("creates a key, prints it as its last line once, and stores only its hash", async () => {
    await rt.runtime() // migrated database
    const r = admin("keys", "create", "--plan", "pro", "--email", "cli@example.com")
    expect(r.status).toBe(0)
    const lines = r.stdout.trim().split("\n")
    const key = lines[lines.length - 1]
    expect(key).toMatch(/^rdk_[0-9A-Za-z]{40}$/)
    expect(r.stderr).toMatch(/shown only now/)
    const rows = await rt.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ key_hash: Buffer; key_prefix: string; plan: string; row: string }>`
      SELECT k.key_hash, k.key_prefix, p.code AS plan, row_to_json(k)::text AS row
      FROM api_keys k JOIN customers c ON c.id = k.customer_id JOIN plans p ON p.id = c.plan_id WHERE c.email = 'cli@example.com'`
      )
    )
    expect(rows).toHaveLength(1)
    expect(rows[0].plan).toBe("pro")
    expect(Buffer.from(rows[0].key_hash).equals(hashApiKey(key))).toBe(true)
    expect(rows[0].row).not.toContain(key.slice(12))
  })

  it("explains bad usage and unknown plans", () => {
    const usage = admin("keys")
    expect(usage.status).toBe(2)
    expect(usage.stderr).toMatch(/usage: npm run -s admin/)
    const plan = admin("keys", "create", "--plan", "platinum", "--email", "x@example.com")
    expect(plan.status).toBe(1)
    expect(plan.stderr).toMatch(/no plan "platinum"/)
  })
})
