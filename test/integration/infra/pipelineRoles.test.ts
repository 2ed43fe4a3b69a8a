import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type ChildProcess } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { childFlags, restartDelayMs } from "../../../infra/supervise/RoleProcesses.js"
import { processWorld } from "../../support/processes.js"

/**
 * `start:pipeline` split in two, on real processes, Postgres and Redis: the bundled simulator's
 * feeds are polled and written by the parent and passed on (analytics, webhooks) by its child;
 * the child killed is started again; SIGTERM stops both cleanly; a parent killed outright leaves
 * no child behind.
 */
const world = processWorld()
const run = <A, E>(e: Effect.Effect<A, E, any>) => world.rt.runPromise(e as Effect.Effect<A, E, never>)

/** The live child processes of `pid`, each with the role script it runs. */
const childrenOf = (pid: number) =>
  readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, "utf8")
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
        if (Number(fields[1]) !== pid || fields[0] === "Z") return []
        const role = /infra\/processes\/(\w+)\.ts/.exec(readFileSync(`/proc/${d}/cmdline`, "utf8"))?.[1]
        return role ? [{ pid: Number(d), role }] : []
      } catch {
        return []
      }
    })

const until = async <T>(what: string, f: () => Promise<T | undefined> | T | undefined, ms = 90_000) => {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await f()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 250))
  }
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
const count = (table: "events" | "features" | "event_history") =>
  run(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`)
  ).then((r) => r[0].n)

const startSupervisor = () => {
  const child: ChildProcess = world.start(
    "pipeline",
    {
      PIPELINE_PROCESSES: "split",
      SIMULATOR_PORT: "0",
      DEMO_POLL_INTERVAL_S: "1",
      LOG_LEVEL: "info",
      SHUTDOWN_TIMEOUT_MS: "15000"
    },
    { stdout: "pipe" }
  )
  let log = ""
  child.stdout!.on("data", (d) => (log += d))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return { child, exited, log: () => log }
}

const analyticsRows = () =>
  run(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM analytics_events`)
  ).then((r) => r[0].n)
const theChild = (pid: number) => until("the stages' child process", () => childrenOf(pid)[0])

describe("start:pipeline split in two processes", () => {
  it("writes in the parent, passes on in its child, starts a killed child again, and stops both on SIGTERM", async () => {
    const sup = startSupervisor()
    const pid = sup.child.pid!
    const child = await theChild(pid)
    expect(childrenOf(pid).map((c) => c.role)).toEqual(["stages"])
    // the parent's poll and materializer write; the child's analytics stage reads what they wrote
    await until("events and features written", async () => (await count("events")) > 0 && (await count("features")) > 0)
    await until("analytics written by the child", async () => (await analyticsRows()) > 0)
    expect(sup.log()).toMatch(/role=stages/)

    process.kill(child.pid, "SIGKILL")
    const again = await until("the stages started again", () =>
      childrenOf(pid).find((c) => c.role === "stages" && c.pid !== child.pid)
    )
    expect(sup.log()).toContain(`role stages (pid ${child.pid}) exited (SIGKILL); starting it again in 1 s`)
    // the new child works: the analytics group reads on past where the killed one stopped
    const before = (await world.group("analytics"))!.lastDeliveredId
    await until(
      "analytics reading after the restart",
      async () => (await world.group("analytics"))!.lastDeliveredId !== before,
      60_000
    )

    sup.child.kill("SIGTERM")
    expect(await sup.exited, sup.log()).toBe(0)
    expect(alive(again.pid)).toBe(false)
    // each drained on the one signal it got
    expect(sup.log()).toMatch(/message="stopping: every part drained" role=stages/)
    expect(sup.log()).toMatch(/message="stopping: every part drained"\n/)
  }, 240_000)

  it("leaves no child behind when the parent itself is killed", async () => {
    const sup = startSupervisor()
    const child = await theChild(sup.child.pid!)
    sup.child.kill("SIGKILL")
    await sup.exited
    await until("the child gone", () => !alive(child.pid), 30_000)
  }, 180_000)
})

describe("restart delays", () => {
  it("double from 1 s to at most 30 s, and fall back to 1 s after a run of a minute", () => {
    expect(restartDelayMs(0, 100)).toBe(1000)
    expect(restartDelayMs(1000, 100)).toBe(2000)
    expect(restartDelayMs(16_000, 100)).toBe(30_000)
    expect(restartDelayMs(30_000, 5000)).toBe(30_000)
    expect(restartDelayMs(30_000, 60_000)).toBe(1000)
  })
})

describe("a child's flags", () => {
  it("keep the supervisor's V8 flags and drop the TypeScript loader, given by tsx or by --import", () => {
    const viaTsx = [
      "--require",
      "/x/node_modules/tsx/dist/preflight.cjs",
      "--import",
      "file:///x/node_modules/tsx/dist/loader.mjs"
    ]
    expect(childFlags([...viaTsx, "--cpu-prof", "--cpu-prof-dir=/tmp/p"])).toEqual([
      "--cpu-prof",
      "--cpu-prof-dir=/tmp/p"
    ])
    expect(childFlags(["--max-semi-space-size=64", "--import", "tsx"])).toEqual(["--max-semi-space-size=64"])
  })
})
