import { readdirSync, readFileSync } from "node:fs"

/** A process's `/proc/<pid>/stat` split: its command name and the fields after it (Linux only). */
export const statOf = (pid: number | string) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  return {
    comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")),
    fields: stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  }
}

/** CPU seconds (user + system) a process has used so far; throws when it is gone. */
export const cpuSecondsOf = (pid: number | string) => {
  const { fields } = statOf(pid)
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Peak and current RSS of a process in bytes (0 when it is gone). */
export const rssOf = (pid: number) => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024
    return { peak: kb("VmHWM"), now: kb("VmRSS") }
  } catch {
    return { peak: 0, now: 0 }
  }
}

/** A process's parent pid; throws when it is gone. */
export const parentOf = (pid: number | string) => Number(statOf(pid).fields[1])

/** A process and every live process below it (a supervisor's children, theirs), from /proc. */
export const withDescendants = (pid: number): Array<number> => {
  const parents = new Map<number, Array<number>>()
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue
    try {
      const ppid = parentOf(d)
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(d)])
    } catch {
      // gone meanwhile
    }
  }
  const out = [pid]
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]) ?? []))
  return out
}

/**
 * Waits until every process has gone idle (under `perSecond` CPU seconds in a second: its
 * start-up spent) and `ready` holds; throws after 2 minutes naming `what`.
 */
export const untilIdle = async (
  pids: ReadonlyArray<number>,
  what: string,
  perSecond: number,
  ready: () => Promise<boolean> = async () => true
) => {
  const started = Date.now()
  for (let last = pids.map(cpuSecondsOf); ;) {
    await new Promise((r) => setTimeout(r, 1000))
    const now = pids.map(cpuSecondsOf)
    if ((await ready()) && now.every((t, i) => t - last[i] < perSecond)) return
    if (Date.now() - started > 120_000) throw new Error(`${what} not ready in 2 minutes`)
    last = now
  }
}
