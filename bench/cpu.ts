import { readdirSync, readFileSync } from "node:fs"

/** CPU seconds (user + system) the matching processes have used so far, from /proc (Linux only; 0 elsewhere). */
export const cpuSeconds = (match: (cmdline: string, comm: string) => boolean) => {
  let ticks = 0
  let dirs: Array<string> = []
  try {
    dirs = readdirSync("/proc").filter((d) => /^\d+$/.test(d))
  } catch {
    return 0
  }
  for (const pid of dirs) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
      if (!match(readFileSync(`/proc/${pid}/cmdline`, "utf8"), comm)) continue
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      ticks += Number(f[11]) + Number(f[12])
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100
}

/** API worker processes (and their primary), Postgres backends, and the materializer. */
export const roles = {
  api: (cmd: string) => cmd.includes("infra/processes/api.ts"),
  postgres: (_cmd: string, comm: string) => comm === "postgres",
  materializer: (cmd: string) => cmd.includes("infra/processes/materializer.ts"),
  bench: (cmd: string) => cmd.includes(`bench/`) && !cmd.includes("infra/processes")
} as const

/** CPU seconds per role between `start()` and the returned function's call. */
export const cpuMeter = () => {
  const at = () => Object.fromEntries(Object.entries(roles).map(([k, m]) => [k, cpuSeconds(m)])) as Record<keyof typeof roles, number>
  const before = at()
  return () => {
    const after = at()
    return Object.fromEntries(Object.keys(roles).map((k) => [k, after[k as keyof typeof roles] - before[k as keyof typeof roles]])) as Record<keyof typeof roles, number>
  }
}
