import { readdirSync, readFileSync } from "node:fs"

/** CPU seconds (user + system) each matching process has used so far, by pid, from /proc (Linux only; empty elsewhere). */
const cpuByPid = (match: (cmdline: string, comm: string) => boolean) => {
  const out = new Map<string, number>()
  let dirs: Array<string> = []
  try {
    dirs = readdirSync("/proc").filter((d) => /^\d+$/.test(d))
  } catch {
    return out
  }
  for (const pid of dirs) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
      if (!match(readFileSync(`/proc/${pid}/cmdline`, "utf8"), comm)) continue
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      out.set(pid, (Number(f[11]) + Number(f[12])) / 100)
    } catch {
      // gone meanwhile
    }
  }
  return out
}

/** API worker processes (and their primary), Postgres backends, and the materializer. */
export const roles = {
  api: (cmd: string) => cmd.includes("infra/processes/api.ts"),
  postgres: (_cmd: string, comm: string) => comm === "postgres",
  materializer: (cmd: string) => cmd.includes("infra/processes/materializer.ts"),
  bench: (cmd: string) => cmd.includes(`bench/`) && !cmd.includes("infra/processes")
} as const

/**
 * CPU seconds per role (`roles` unless given) between `cpuMeter()` and the returned function's call, summed over the
 * processes alive at the end (a process started meanwhile counts whole). A process that exited
 * meanwhile (an idle Postgres connection closed by its pool) takes its time with it and is left
 * out: subtracting totals would count its whole life against the phase, even below zero.
 */
export const cpuMeter = <K extends string = keyof typeof roles>(
  measured: Record<K, (cmdline: string, comm: string) => boolean> = roles as unknown as Record<K, (cmdline: string, comm: string) => boolean>
) => {
  const at = () => Object.fromEntries(Object.entries(measured).map(([k, m]) => [k, cpuByPid(m as (cmdline: string, comm: string) => boolean)])) as Record<K, Map<string, number>>
  const before = at()
  return () => {
    const after = at()
    return Object.fromEntries(Object.keys(measured).map((k) => {
      const role = k as K
      let sum = 0
      for (const [pid, s] of after[role]) sum += s - (before[role].get(pid) ?? 0)
      return [k, sum]
    })) as Record<K, number>
  }
}
