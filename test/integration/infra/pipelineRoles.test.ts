import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { type ChildProcess } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { childFlags, restartDelayMs } from "../../../infra/supervise/RoleProcesses.js"
import { processWorld } from "../../support/processes.js"

/**
 * `start:pipeline` with its roles as child processes, on real processes, Postgres and Redis: the
 * bundled simulator's feeds are polled, written and passed on by the children; a child killed is
 * started again; SIGTERM stops every child cleanly; a supervisor killed outright leaves no child.
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
      PIPELINE_PROCESSES: "roles",
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

describe("start:pipeline with its roles as processes", () => {
  it("runs each role as a child, starts a killed one again, and stops them all on SIGTERM", async () => {
    const sup = startSupervisor()
    const pid = sup.child.pid!
    const roles = await until("four role processes", () => {
      const c = childrenOf(pid)
      return c.length === 4 ? c : undefined
    })
    expect(roles.map((r) => r.role).sort()).toEqual(["analytics", "materializer", "poller", "webhooks"])
    // the poller's changes reach Postgres through the materializer child, with their history
    await until("events and features written", async () => (await count("events")) > 0 && (await count("features")) > 0)
    expect(await count("event_history")).toBeGreaterThan(0)
    expect(sup.log()).toMatch(/role=poller/)

    const materializer = roles.find((r) => r.role === "materializer")!
    process.kill(materializer.pid, "SIGKILL")
    const again = await until("the materializer started again", () =>
      childrenOf(pid).find((c) => c.role === "materializer" && c.pid !== materializer.pid)
    )
    expect(sup.log()).toContain(
      `role materializer (pid ${materializer.pid}) exited (SIGKILL); starting it again in 1 s`
    )
    // the new one writes: a poll's changes after the restart are materialized
    const before = await count("event_history")
    await until("history written after the restart", async () => (await count("event_history")) > before, 60_000)

    const pids = childrenOf(pid).map((c) => c.pid)
    expect(pids).toContain(again.pid)
    sup.child.kill("SIGTERM")
    expect(await sup.exited, sup.log()).toBe(0)
    expect(pids.filter(alive)).toEqual([])
    // each child drained on the one signal it got
    for (const role of ["poller", "materializer", "analytics", "webhooks"])
      expect(sup.log()).toMatch(new RegExp(`message="stopping: every part drained" role=${role}`))
  }, 240_000)

  it("leaves no child behind when the supervisor itself is killed", async () => {
    const sup = startSupervisor()
    const pid = sup.child.pid!
    const roles = await until("four role processes", () => {
      const c = childrenOf(pid)
      return c.length === 4 ? c : undefined
    })
    sup.child.kill("SIGKILL")
    await sup.exited
    await until("every child gone", () => roles.every((r) => !alive(r.pid)), 30_000)
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
