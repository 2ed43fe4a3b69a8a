import { SqlClient } from "@effect/sql"
import { Effect, ManagedRuntime } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey } from "../../../infra/admin/keys.js"
import { apiPoolSize } from "../../../shared/lifecycle/gcThreads.js"
import { workerSnapshots } from "../../../shared/metrics/WorkerMetrics.js"
import { makeTestEnv } from "../../support/harness.js"
import { freePort } from "../../support/processes.js"

/**
 * The API role as several worker processes (node:cluster, API_WORKERS): real processes on one
 * port, limits shared through Redis, a dead worker replaced, a stop that drains them all.
 */
const root = fileURLToPath(new URL("../../..", import.meta.url))
const env = makeTestEnv()
const rt = ManagedRuntime.make(env.layer)
const WORKERS = 3
const LIMIT = 40
let primary: ChildProcess
let base = ""
let key = ""
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The primary's worker children (tsx's esbuild helpers left out) and their CPU ticks (utime + stime) from /proc. */
const workers = () =>
  readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
        if (
          Number(f[1]) !== primary.pid ||
          !readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("infra/processes/api.ts")
        )
          return []
        return [{ pid: Number(pid), ticks: Number(f[11]) + Number(f[12]) }]
      } catch {
        return []
      }
    })
const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 30_000) => {
  const t0 = Date.now()
  while (!(await ok())) {
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms: ${what}`)
    await sleep(100)
  }
}
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers: { connection: "close", ...headers }, signal: AbortSignal.timeout(10_000) })
const healthy = () =>
  get("/health").then(
    (r) => r.ok,
    () => false
  )

beforeAll(async () => {
  await rt.runtime()
  key = (await rt.runPromise(createKey({ plan: "enterprise", email: "workers@example.com" }))).key
  await rt.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE api_keys SET rate_limit_rpm = ${LIMIT}`))
  const port = await freePort()
  base = `http://127.0.0.1:${port}/api/v1`
  primary = spawn(process.execPath, ["--import", "tsx", "infra/processes/api.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: env.dbUrl,
      REDIS_URL: env.redisUrl,
      REDIS_PREFIX: env.prefix,
      PORT: String(port),
      API_WORKERS: String(WORKERS),
      LOG_LEVEL: "warn",
      ROUTING_PRELOAD: "false",
      DRAIN_GRACE_MS: "200",
      METRICS_TOKEN: "workers-token"
    },
    stdio: ["ignore", "ignore", "inherit"]
  })
  await until("the API answers", healthy, 60_000)
  await until(`${WORKERS} workers`, () => workers().length === WORKERS)
}, 90_000)
afterAll(async () => {
  if (primary.exitCode === null) primary.kill("SIGKILL")
  await rt.dispose()
  await env.cleanup()
})

describe("API workers", () => {
  it(`runs ${WORKERS} worker processes on one port, each serving requests`, async () => {
    const before = new Map(workers().map((w) => [w.pid, w.ticks]))
    // fresh connections, so the primary hands them round the workers
    for (let i = 0; i < 20; i++) {
      await Promise.all(Array.from({ length: 30 }, () => get("/health").then((r) => r.arrayBuffer())))
    }
    const after = workers()
    expect(after.map((w) => w.pid).sort()).toEqual([...before.keys()].sort())
    for (const w of after) expect(w.ticks - (before.get(w.pid) ?? 0), `worker ${w.pid} did work`).toBeGreaterThan(0)
  })

  it("starts each worker with the API's V8 flags: its young generation, no pretenuring, a thread pool of its share of the cores", () => {
    for (const w of workers()) {
      const args = readFileSync(`/proc/${w.pid}/cmdline`, "utf8").split("\0")
      expect(args).toContain("--max-semi-space-size=32")
      expect(args).toContain("--no-allocation-site-pretenuring")
      expect(args).toContain(`--v8-pool-size=${apiPoolSize(WORKERS)}`)
    }
  })

  it(`holds one key to its ${LIMIT} requests a minute across every worker`, async () => {
    // Each answer says when its window ends (X-RateLimit-Reset, whole seconds from the server's
    // second), so answers are grouped by the window that counted them: a burst that crosses a
    // minute is judged per window rather than waited out.
    const answers: Array<{ status: number; window: number }> = []
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        for (let i = 0; i < 10; i++) {
          const r = await get("/events?jurisdiction=NY&limit=1", { "X-API-Key": key })
          await r.arrayBuffer()
          const endS = Math.floor(Date.now() / 1000) + Number(r.headers.get("x-ratelimit-reset"))
          answers.push({ status: r.status, window: Math.round(endS / 60) })
        }
      })
    )
    expect(answers.length).toBe(120)
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true)
    const windows = new Set(answers.map((a) => a.window))
    expect(windows.size).toBeLessThanOrEqual(2)
    for (const w of windows) {
      const inWindow = answers.filter((a) => a.window === w)
      expect(inWindow.filter((a) => a.status === 200).length, `window ending at minute ${w}`).toBe(
        Math.min(LIMIT, inWindow.length)
      )
    }
  })

  it("shows every worker's request counts in each /metrics answer, whichever worker gives it", async () => {
    for (let i = 0; i < 30; i++) expect((await get("/health")).status).toBe(200)
    // each worker publishes its own counters every 5 s: wait until every one has published since
    // the last of those answers, so every scrape below sees the same final counts
    const answeredAt = Date.now()
    await until(
      "every worker's counters published after the last answer",
      async () => (await rt.runPromise(workerSnapshots)).filter((w) => w.at > answeredAt).length >= WORKERS,
      20_000
    )
    const healthLines = async () => {
      const text = await (
        await fetch(`${base.replace("/api/v1", "")}/metrics`, {
          headers: { authorization: "Bearer workers-token", connection: "close" }
        })
      ).text()
      return text
        .split("\n")
        .filter((l) => l.startsWith('http_requests_total{route="/api/v1/health",method="GET",status="200"'))
    }
    const sums: Array<number> = []
    for (let i = 0; i < 6; i++) {
      const lines = await healthLines()
      expect(new Set(lines.map((l) => /worker="([^"]+)"/.exec(l)?.[1])).size, lines.join("\n")).toBe(WORKERS)
      sums.push(lines.reduce((n, l) => n + Number(l.split(" ").pop()), 0))
    }
    // the same total whichever worker answered: no counter seems to jump back
    expect(new Set(sums).size).toBe(1)
    expect(sums[0]).toBeGreaterThanOrEqual(30)
  }, 30_000)

  it("replaces a worker that dies, and keeps answering meanwhile; no request is left hanging", async () => {
    const [victim, ...others] = workers()
    // traffic through the kill: a request the dead worker held may be reset, none may hang
    let loading = true
    const outcomes = { ok: 0, reset: 0, hung: 0 }
    const load = Promise.all(
      Array.from({ length: 20 }, async () => {
        while (loading) {
          await fetch(`${base}/health`, { headers: { connection: "close" }, signal: AbortSignal.timeout(5_000) }).then(
            async (r) => {
              await r.arrayBuffer()
              outcomes.ok++
            },
            (e: Error) => {
              outcomes[e.name === "TimeoutError" ? "hung" : "reset"]++
            }
          )
        }
      })
    )
    await sleep(300)
    process.kill(victim.pid, "SIGKILL")
    // the traffic runs through the kill until the primary has started the dead worker's replacement
    await until(
      "a replacement worker",
      () => workers().length === WORKERS && !workers().some((w) => w.pid === victim.pid),
      30_000
    )
    await until("100 answers through the kill", () => outcomes.ok > 100, 30_000)
    loading = false
    await load
    expect(outcomes.hung).toBe(0)
    expect(outcomes.ok).toBeGreaterThan(100)
    await until("the API still answers", healthy, 5_000)
    await until(
      `${WORKERS} workers again`,
      () => workers().length === WORKERS && !workers().some((w) => w.pid === victim.pid),
      30_000
    )
    expect(workers().map((w) => w.pid)).toEqual(expect.arrayContaining(others.map((w) => w.pid)))
    // every answer keeps coming while the new worker starts and joins
    let failed = 0
    for (let i = 0; i < 10; i++) {
      const rs = await Promise.all(
        Array.from({ length: 30 }, () =>
          get("/health").then(
            (r) => r.status,
            () => 0
          )
        )
      )
      failed += rs.filter((s) => s !== 200).length
      await sleep(200)
    }
    expect(failed).toBe(0)
  }, 60_000)

  it("stops every worker on SIGTERM, cleanly and within SHUTDOWN_TIMEOUT_MS", async () => {
    const pids = workers().map((w) => w.pid)
    const t0 = Date.now()
    const exited = new Promise<number | null>((r) => primary.once("exit", (code) => r(code)))
    primary.kill("SIGTERM")
    expect(await exited).toBe(0)
    expect(Date.now() - t0).toBeLessThan(10_000)
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow()
  }, 20_000)
})
