import { readdirSync, readFileSync } from "node:fs"
import { cpuSecondsOf, statOf } from "./proc.js"

/** Which processes a role is: by command line, or by command name. */
type Matcher = (cmdline: string, comm: string) => boolean

/**
 * CPU seconds (user + system) each matching process has used so far, by pid, from /proc (Linux only; empty
 * elsewhere).
 */
const cpuByPid = (match: Matcher) => {
  const out = new Map<string, number>()
  let dirs: Array<string> = []
  try {
    dirs = readdirSync("/proc").filter((d) => /^\d+$/.test(d))
  } catch {
    return out
  }
  for (const pid of dirs) {
    try {
      if (!match(readFileSync(`/proc/${pid}/cmdline`, "utf8"), statOf(pid).comm)) continue
      out.set(pid, cpuSecondsOf(pid))
    } catch {
      // gone meanwhile
    }
  }
  return out
}

/** API worker processes (and their primary), Postgres backends, and the materializer. */
export const roles = {
  api: (cmd) => cmd.includes("infra/processes/api.ts"),
  postgres: (_cmd, comm) => comm === "postgres",
  materializer: (cmd) => cmd.includes("infra/processes/materializer.ts"),
  bench: (cmd) => cmd.includes(`bench/`) && !cmd.includes("infra/processes")
} satisfies Record<string, Matcher>

/**
 * CPU seconds per role (`roles` unless given) between `cpuMeter()` and the returned function's call, summed over the
 * processes alive at the end (a process started meanwhile counts whole). A process that exited
 * meanwhile (an idle Postgres connection closed by its pool) takes its time with it and is left
 * out: subtracting totals would count its whole life against the phase, even below zero.
 */
export function cpuMeter(): () => Record<keyof typeof roles, number>
export function cpuMeter<K extends string>(measured: Record<K, Matcher>): () => Record<K, number>
export function cpuMeter(measured: Record<string, Matcher> = roles) {
  const at = () => new Map(Object.entries(measured).map(([k, m]) => [k, cpuByPid(m)]))
  const before = at()
  return () => {
    const after = at()
    return Object.fromEntries(
      [...after].map(([role, pids]) => {
        let sum = 0
        for (const [pid, s] of pids) sum += s - (before.get(role)!.get(pid) ?? 0)
        return [role, sum]
      })
    )
  }
}
