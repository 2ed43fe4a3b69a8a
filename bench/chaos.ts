/**
 * npm run chaos — the whole system under faults, on its own Postgres cluster (initdb from this
 * machine's binaries, a free port, so it can be restarted) and its own Redis (AOF, fsync every
 * second). Roles, each a real process: 2 pipelines, 2 materializers, the webhook stage, the
 * analytics stage, the API; the upstream simulator (a 400-zone WZDx feed whose state is a pure
 * function of the timeline step) and a receiver that checks every delivery's Standard Webhooks
 * signature live in this process, the world outside the system, and are never killed.
 *
 * Scenarios, each on a fresh database and an empty Redis, over the same scripted timeline:
 *   clean; kill -9 a random role every 5 s (restarted 1 s later, as a supervisor would);
 *   kill -9 every role at once and restart; kill -9 Redis and restart it from its AOF; the same
 *   with its data wiped; `pg_ctl restart -m fast`.
 * And api-load: the same system under bench:load-style API traffic (CHAOS_API_RATE, 1,000
 * requests/s over CHAOS_API_CONNECTIONS, 50; polled and never-asked questions; 2 API workers) through the timeline,
 * with `pg_ctl restart -m fast` at its middle and a
 * kill -9 of one API worker 30 s later: every answer is counted by status (a 503 must carry
 * Retry-After), with how long the 5xx lasted, requests lost (connections reset) or hung (no answer
 * in 10 s), and seconds from each fault until answers are all 2xx again.
 * Each is compared with the clean run: history transitions missing (lost) or extra (duplicate),
 * events announced as created more than once, deliveries missing or repeated under a new id,
 * messages left pending or dead-lettered, and seconds from the fault's end until /health answers
 * 200 and every consumer group is within 1 s of the stream's head.
 * A step (40 s) outlasts a recovery, so every run observes every upstream state and a difference
 * from the clean run is the system's own. CHAOS_STEPS (4), CHAOS_STEP_S (40) and CHAOS_SCENARIOS (comma list) change
 * it. Loopback only.
 */
import { aroundFault, apiTraffic, workerPids } from "./chaosApiTraffic.js"
import { freePort } from "./measure.js"
import { parentOf } from "./proc.js"
import { clusterWorkDir, initCluster, type PgCluster } from "../infra/tools/pgCluster.js"
import { execFileSync, spawn, type ChildProcess } from "node:child_process"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { createClient } from "redis"
import { Webhook } from "standardwebhooks"

const STEPS = Number(process.env.CHAOS_STEPS ?? 4)
const STEP_S = Number(process.env.CHAOS_STEP_S ?? 40)
process.env.CHAOS_STEPS = String(STEPS)
process.env.CHAOS_STEP_S = String(STEP_S)
const { startSimulator } = await import("../infra/simulator/Simulator.js")
const TIMELINE_S = STEPS * STEP_S
const SCENARIOS = (
  process.env.CHAOS_SCENARIOS ?? "clean,kill-random,kill-all,redis-restart,redis-wiped,postgres-restart,api-load"
).split(",")
const API_CONNECTIONS = Number(process.env.CHAOS_API_CONNECTIONS ?? 50)
const API_RATE = Number(process.env.CHAOS_API_RATE ?? 1000)
const root = fileURLToPath(new URL("..", import.meta.url))
const work = clusterWorkDir("rd-chaos-")
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`)

// --- Postgres: a cluster of our own --------------------------------------------------------
let cluster: PgCluster | undefined
const pgDir = join(work, "pg")
const startPostgres = async () => {
  cluster ??= initCluster(pgDir, await freePort(), ["max_connections=300"])
  cluster.start()
}
const restartPostgres = () => cluster?.restart()
const restartPostgresAsync = () => cluster?.restartAsync() ?? Promise.resolve()
const stopPostgres = () => cluster?.stop("immediate")
const pgPort = () => cluster?.port ?? 0

// --- Redis: ours, with an append-only file -------------------------------------------------
const redisDir = join(work, "redis")
let redisPort = 0
let redisProc: ChildProcess | null = null
const startRedis = async () => {
  mkdirSync(redisDir, { recursive: true })
  if (redisPort === 0) redisPort = await freePort()
  redisProc = spawn(
    "redis-server",
    [
      "--port",
      String(redisPort),
      "--bind",
      "127.0.0.1",
      "--dir",
      redisDir,
      "--appendonly",
      "yes",
      "--appendfsync",
      "everysec",
      "--save",
      ""
    ],
    { stdio: "ignore" }
  )
  for (let i = 0; i < 100; i++) {
    const c = createClient({ url: `redis://127.0.0.1:${redisPort}` })
    c.on("error", () => undefined)
    const ok = await c
      .connect()
      .then(() => c.ping())
      .then(
        () => true,
        () => false
      )
    await c.quit().catch(() => undefined)
    if (ok) return
    await sleep(100)
  }
  throw new Error("redis did not start")
}
const killRedis = async () => {
  const p = redisProc
  if (!p || p.exitCode !== null) return
  await new Promise<void>((r) => {
    p.once("exit", () => r())
    p.kill("SIGKILL")
  })
}

// --- stopping: a signal (Ctrl-C, a CI's SIGTERM) leaves no process, cluster or folder behind --
const children = new Set<ChildProcess>()
const cleanUpAndExit = (signal: NodeJS.Signals) => {
  log(`chaos: ${signal}; stopping every process, Redis and the Postgres cluster`)
  for (const c of children) c.kill("SIGKILL")
  redisProc?.kill("SIGKILL")
  stopPostgres()
  if (process.env.CHAOS_KEEP !== "1") rmSync(work, { recursive: true, force: true })
  process.exit(signal === "SIGINT" ? 130 : 143)
}
process.once("SIGINT", cleanUpAndExit)
process.once("SIGTERM", cleanUpAndExit)
// `npm run chaos` stopped with SIGTERM dies without passing the signal on: when any process above
// this one (npm, its shell, tsx) is gone, stop as if signalled. Linux's /proc tells the ancestry.
const ancestors = (() => {
  const out: Array<number> = []
  for (let pid = process.ppid; pid > 1 && out.length < 8;) {
    out.push(pid)
    try {
      pid = parentOf(pid)
    } catch {
      break
    }
  }
  return out
})()
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
setInterval(() => {
  if (ancestors.some((pid) => !alive(pid))) cleanUpAndExit("SIGTERM")
}, 1000).unref()

// --- the roles -----------------------------------------------------------------------------
interface Role {
  readonly name: string
  readonly script: string
  readonly env?: Record<string, string>
  proc?: ChildProcess
}
const roleList = (apiPort: number, sources: string): Array<Role> => [
  { name: "pipeline-1", script: "infra/processes/pipeline.ts", env: { SOURCES_FILE: sources } },
  { name: "pipeline-2", script: "infra/processes/pipeline.ts", env: { SOURCES_FILE: sources } },
  { name: "materializer-1", script: "infra/processes/materializer.ts" },
  { name: "materializer-2", script: "infra/processes/materializer.ts" },
  { name: "webhooks", script: "infra/processes/webhooks.ts" },
  { name: "analytics", script: "infra/processes/analytics.ts" },
  { name: "api", script: "infra/processes/api.ts", env: { PORT: String(apiPort), API_WORKERS: "2" } }
]

const main = async () => {
  log(`chaos: ${SCENARIOS.join(", ")}; timeline ${STEPS} steps × ${STEP_S} s; work dir ${work}`)
  await startPostgres()
  await startRedis()
  const rows: Array<Record<string, string | number>> = []
  let clean: Observed | null = null
  try {
    for (const scenario of SCENARIOS) {
      const seen = await runScenario(scenario)
      if (scenario === "clean") clean = seen
      const row = compare(scenario, seen, clean)
      rows.push(row)
      log(`${scenario}: ${JSON.stringify(row)}`)
    }
  } finally {
    await killRedis()
    stopPostgres()
    if (process.env.CHAOS_KEEP !== "1") rmSync(work, { recursive: true, force: true })
  }
  const cols = [
    "scenario",
    "changes lost",
    "duplicate history",
    "re-announced created",
    "deliveries missing",
    "deliveries with a changed id",
    "pending",
    "dead-lettered",
    "history rows / deliveries",
    "recovery s"
  ]
  console.log(`\n| ${cols.join(" | ")} |\n|${cols.map(() => "---").join("|")}|`)
  for (const r of rows) console.log(`| ${cols.map((c) => r[c] ?? "").join(" | ")} |`)
  if (apiObserved) {
    console.log(
      `\napi-load: ${apiObserved.requests} answers, statuses ${JSON.stringify(apiObserved.statuses)} (0 = reset, refused or no answer), hung (no answer in 10 s) ${apiObserved.hung}`
    )
    const fcols = [
      "fault",
      "answers",
      "503",
      "503 without Retry-After",
      "other 5xx",
      "lost",
      "5xx span s",
      "recovery s"
    ]
    console.log(`| ${fcols.join(" | ")} |\n|${fcols.map(() => "---").join("|")}|`)
    for (const f of apiObserved.faults) console.log(`| ${fcols.map((c) => f[c] ?? "").join(" | ")} |`)
  }
  console.log(
    JSON.stringify({
      bench: "chaos",
      steps: STEPS,
      step_s: STEP_S,
      scenarios: rows,
      ...(apiObserved ? { api_load: apiObserved } : {})
    })
  )
}

interface Observed {
  /** "source_id change_type old→new" → count */
  readonly history: Map<string, number>
  /** "event kind event_id severity status" → count of distinct delivery ids */
  readonly deliveries: Map<string, number>
  /** event_id → distinct delivery ids announcing its creation */
  readonly created: Map<string, number>
  readonly pending: number
  readonly dead: number
  readonly recoveryS: number | null
}

const apiFaults: Array<{ fault: string; from: number; to: number }> = []
let apiObserved: {
  requests: number
  statuses: Record<string, number>
  hung: number
  faults: Array<Record<string, string | number>>
} | null = null

const runScenario = async (scenario: string): Promise<Observed> => {
  const db = `chaos_${scenario.replace(/-/g, "_")}`
  const dbUrl = `postgres://postgres@127.0.0.1:${pgPort()}/${db}`
  const redisUrl = `redis://127.0.0.1:${redisPort}`
  const admin = createClient({ url: redisUrl })
  admin.on("error", () => undefined)
  await admin.connect()
  await admin.flushAll()
  await admin.quit()

  // the receiver: every delivery's signature checked; ids and contents recorded
  const received = new Map<string, Array<{ event: string; data: Record<string, unknown> }>>()
  let badSignatures = 0
  let verifier: Webhook | null = null
  const receiver: Server = createServer((req, res) => {
    let body = ""
    req.on("data", (d) => (body += d))
    req.on("end", () => {
      try {
        verifier?.verify(body, req.headers as Record<string, string>)
        const id = String(req.headers["webhook-id"])
        const parsed = JSON.parse(body) as {
          events?: Array<{ event: string; data: Record<string, unknown> }>
          event?: string
          data?: Record<string, unknown>
        }
        received.set(id, parsed.events ?? [{ event: parsed.event!, data: parsed.data! }])
        res.writeHead(200).end()
      } catch {
        badSignatures += 1
        res.writeHead(400).end()
      }
    })
  })
  const receiverPort = await new Promise<number>((r) =>
    receiver.listen(0, "127.0.0.1", () => r((receiver.address() as { port: number }).port))
  )
  const sim = await startSimulator(0)
  const sources = join(work, `sources-${scenario}.json`)
  writeFileSync(
    sources,
    JSON.stringify([
      {
        id: "chaos-wzdx",
        adapter: "wzdx",
        url: `${sim.url}/chaos/wzdx`,
        jurisdiction: "IA",
        poll_interval_s: 1,
        timeout_ms: 5000
      }
    ])
  )
  const baseEnv = {
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: "rd",
    LOG_LEVEL: "error",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    CLAIM_IDLE_MS: "5000",
    SHUTDOWN_TIMEOUT_MS: "5000"
  }
  // a key and a signed subscription to every Iowa event (the CLI also migrates the new database)
  const cli = (args: Array<string>) =>
    execFileSync(process.execPath, ["--import", "tsx", "infra/admin/cli.ts", ...args], {
      cwd: root,
      env: { ...process.env, ...baseEnv }
    })
      .toString()
      .trim()
      .split("\n")
  const apiKey = cli(["keys", "create", "--plan", "pro", "--email", "chaos@example.com"]).pop()!
  const secret = cli([
    "webhooks",
    "create",
    "--email",
    "chaos@example.com",
    "--url",
    `http://127.0.0.1:${receiverPort}/hook`,
    "--jurisdiction",
    "IA"
  ]).pop()!
  verifier = new Webhook(secret)

  const apiPort = await freePort()
  const roles = roleList(apiPort, sources)
  const start = (r: Role) => {
    r.proc = spawn(process.execPath, ["--import", "tsx", r.script], {
      cwd: root,
      env: { ...process.env, ...baseEnv, ...r.env },
      stdio: "ignore"
    })
    children.add(r.proc)
    r.proc.once("exit", () => children.delete(r.proc!))
  }
  const kill9 = (r: Role) =>
    new Promise<void>((resolve) => {
      const p = r.proc
      if (!p || p.exitCode !== null || p.signalCode !== null) return resolve()
      p.once("exit", () => resolve())
      p.kill("SIGKILL")
    })
  // a supervisor: whatever dies is started again a second later
  let supervising = true
  const supervisor = setInterval(() => {
    if (!supervising) return
    for (const r of roles) if (r.proc && (r.proc.exitCode !== null || r.proc.signalCode !== null)) start(r)
  }, 1000)
  for (const r of roles) start(r)

  let lastHealth = ""
  const health = () =>
    fetch(`http://127.0.0.1:${apiPort}/api/v1/health`, { signal: AbortSignal.timeout(5000) }).then(
      async (r) => {
        lastHealth = `${r.status} ${await r.text()}`
        return r.status === 200
      },
      (e) => {
        lastHealth = String(e)
        return false
      }
    )
  /** each consumer group's distance (ms of stream ids) behind the stream's head; null when Redis cannot be read */
  const groupsBehind = async () => {
    const c = createClient({ url: redisUrl })
    c.on("error", () => undefined)
    try {
      await c.connect()
      const last = (await c.xRevRange("rd:changes", "+", "-", { COUNT: 1 }))[0]?.id ?? "0-0"
      const groups = (await c.sendCommand(["XINFO", "GROUPS", "rd:changes"])) as Array<Array<unknown>>
      const ms = (id: string) => Number(id.split("-")[0])
      return groups.map((g) => {
        const m = new Map<string, unknown>()
        for (let i = 0; i + 1 < g.length; i += 2) m.set(String(g[i]), g[i + 1])
        return {
          name: String(m.get("name")),
          behindMs: ms(last) - ms(String(m.get("last-delivered-id"))),
          pending: Number(m.get("pending"))
        }
      })
    } catch {
      return null
    } finally {
      await c.quit().catch(() => undefined)
    }
  }
  const caughtUp = async () => {
    const groups = await groupsBehind()
    return groups !== null && groups.length > 0 && groups.every((g) => g.behindMs < 1000)
  }
  /** the same, for the log */
  const groupLags = async () =>
    (await groupsBehind())?.map((g) => `${g.name} ${g.behindMs} ms behind, pending ${g.pending}`).join("; ") ??
    "groups unreadable"
  // upstream stays at step 0 until the system is up (boot can outlast a step)
  while (!(await health())) {
    await fetch(`${sim.url}/_sim/elapsed?s=0`, { method: "POST" })
    await sleep(250)
  }
  // the timeline starts when the system is up
  await fetch(`${sim.url}/_sim/elapsed?s=0`, { method: "POST" })
  const t0 = Date.now()
  const at = (s: number) => sleep(Math.max(0, t0 + s * 1000 - Date.now()))
  log(`${scenario}: system up, timeline running`)

  /**
   * seconds from `since` until /health answers 200 and every group is within 1 s of the stream's head; null after 120
   * s
   */
  const recovered = async (since: number) => {
    let healthy = false
    while (Date.now() - since < 120_000) {
      healthy = await health()
      if (healthy && (await caughtUp())) return (Date.now() - since) / 1000
      await sleep(250)
    }
    log(
      `${scenario}: not recovered in 120 s: /health ${healthy ? "200" : lastHealth.slice(0, 200)}; ${await groupLags()}`
    )
    return null
  }
  let recoveryS: number | null = null
  let faultEnd = 0
  const mid = Math.floor(TIMELINE_S / 2)
  let traffic: ReturnType<typeof apiTraffic> | null = null
  if (scenario === "api-load") {
    const c = new pg.Client({ connectionString: dbUrl })
    await c.connect()
    await c.query("UPDATE api_keys SET rate_limit_rpm = 100000000")
    await c.end()
    traffic = apiTraffic(apiPort, apiKey, TIMELINE_S, API_CONNECTIONS, API_RATE)
  }
  if (scenario === "kill-random") {
    for (let s = 10; s <= TIMELINE_S - 10; s += 5) {
      await at(s)
      const victim = roles[Math.floor(Math.random() * roles.length)]
      await kill9(victim)
    }
    faultEnd = Date.now()
  } else if (scenario === "kill-all") {
    await at(mid)
    await Promise.all(roles.map(kill9))
    faultEnd = Date.now()
  } else if (scenario === "redis-restart" || scenario === "redis-wiped") {
    await at(mid)
    await killRedis()
    if (scenario === "redis-wiped") rmSync(redisDir, { recursive: true, force: true })
    await startRedis()
    faultEnd = Date.now()
  } else if (scenario === "postgres-restart") {
    await at(mid)
    restartPostgres()
    faultEnd = Date.now()
  } else if (scenario === "api-load") {
    await at(mid)
    const pgFrom = Date.now()
    await restartPostgresAsync()
    faultEnd = Date.now()
    log(`${scenario}: Postgres restarted in ${((faultEnd - pgFrom) / 1000).toFixed(1)} s`)
    apiFaults.push({ fault: "postgres restart", from: pgFrom, to: faultEnd })
    // the pipeline's recovery from the restart, before the next fault
    recoveryS = await recovered(faultEnd)
    await at(mid + 30)
    const api = roles.find((r) => r.name === "api")!
    const [victim] = workerPids(api.proc!.pid!)
    const killedAt = Date.now()
    if (victim) process.kill(victim, "SIGKILL")
    apiFaults.push({
      fault: victim ? "API worker kill -9" : "API worker kill -9 (no worker found)",
      from: killedAt,
      to: killedAt
    })
  }
  if (faultEnd > 0 && scenario !== "api-load") recoveryS = await recovered(faultEnd)
  await at(TIMELINE_S + 5)
  // settle: the stream drained and no delivery waiting
  const settleUntil = Date.now() + 90_000
  const client = new pg.Client({ connectionString: dbUrl })
  await client.connect()
  // the last step observed (a poll that began after it started), then nothing left to apply or send
  const lastStepAt = new Date(t0 + ((STEPS - 1) * STEP_S + 2) * 1000).toISOString()
  while (Date.now() < settleUntil) {
    const observed = await client
      .query<{ n: number }>(
        "SELECT count(*)::int AS n FROM source_polls WHERE source = 'chaos-wzdx' AND outcome IN ('ok', 'not_modified') AND started_at > $1",
        [lastStepAt]
      )
      .then(
        (r) => r.rows[0].n,
        () => 0
      )
    const waiting = await client
      .query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'")
      .then(
        (r) => r.rows[0].n,
        () => 1
      )
    if (observed > 0 && waiting === 0 && (await caughtUp())) break
    await sleep(500)
  }
  await sleep(3000)
  const history = new Map<string, number>()
  for (const r of (
    await client.query<{ k: string; n: number }>(`
    SELECT e.source_id || ' ' || h.change_type || ' ' || coalesce(h.old_value, '-') || '→' || coalesce(h.new_value, '-') AS k, count(*)::int AS n
    FROM event_history h JOIN events e ON e.id = h.event_id GROUP BY 1`)
  ).rows)
    history.set(r.k, r.n)
  await client.end()
  const { pending, dead } = await (async () => {
    const c = createClient({ url: redisUrl })
    await c.connect()
    const groups = (await c.sendCommand(["XINFO", "GROUPS", "rd:changes"])) as Array<Array<unknown>>
    const pendingSum = groups.reduce((n, g) => n + Number(g[g.indexOf("pending") + 1] ?? 0), 0)
    const deadLen = await c.xLen("rd:changes:dlq").catch(() => 0)
    await c.quit()
    return { pending: pendingSum, dead: deadLen }
  })()

  if (traffic) {
    await traffic.done
    const seen = traffic.seen
    const statuses: Record<string, number> = {}
    for (const x of seen) statuses[x.status] = (statuses[x.status] ?? 0) + 1
    apiObserved = {
      requests: seen.length,
      statuses,
      hung: traffic.hung(),
      faults: apiFaults.map((f) => ({ fault: f.fault, ...aroundFault(seen, f.from, f.to, 25_000) }))
    }
  }
  supervising = false
  clearInterval(supervisor)
  for (const r of roles) r.proc?.kill("SIGTERM")
  await sleep(2000)
  await Promise.all(roles.map(kill9))
  await sim.close()
  receiver.close()

  const deliveries = new Map<string, number>()
  const created = new Map<string, number>()
  for (const items of received.values()) {
    for (const it of items) {
      const k = `${it.event} ${it.data.event_id} ${it.data.severity ?? ""}`
      deliveries.set(k, (deliveries.get(k) ?? 0) + 1)
      if (it.event === "event.created")
        created.set(String(it.data.event_id), (created.get(String(it.data.event_id)) ?? 0) + 1)
    }
  }
  if (badSignatures > 0) log(`${scenario}: ${badSignatures} deliveries failed signature checks`)
  return { history, deliveries, created, pending, dead, recoveryS }
}

const excess = (a: Map<string, number>, b: Map<string, number>) => {
  let n = 0
  for (const [k, v] of a) n += Math.max(0, v - (b.get(k) ?? 0))
  return n
}

const compare = (scenario: string, seen: Observed, clean: Observed | null): Record<string, string | number> => {
  const base = clean ?? seen
  return {
    scenario,
    "changes lost": excess(base.history, seen.history),
    "duplicate history": excess(seen.history, base.history),
    "re-announced created": [...seen.created.values()].filter((n) => n > 1).length,
    "deliveries missing": excess(base.deliveries, seen.deliveries),
    "deliveries with a changed id": excess(seen.deliveries, base.deliveries),
    pending: seen.pending,
    "dead-lettered": seen.dead,
    "history rows / deliveries": `${[...seen.history.values()].reduce((a, b) => a + b, 0)} / ${[...seen.deliveries.values()].reduce((a, b) => a + b, 0)}`,
    "recovery s": seen.recoveryS === null ? (scenario === "clean" ? "—" : "not in 120 s") : seen.recoveryS.toFixed(1)
  }
}

main().catch((e) => {
  console.error(e)
  stopPostgres()
  void killRedis()
  process.exit(1)
})
