import { setFlagsFromString } from "node:v8"

/** What HEAP_GROWING_PERCENT defaults to: see `limitHeapGrowth`. */
export const DEFAULT_HEAP_GROWING_PERCENT = 30
/**
 * The API role's default: V8's own. An API worker holds little live data and makes a lot of
 * short-lived garbage, so the tighter limit buys it little memory and costs it full collections:
 * measured with bench:routing (200 routes, three runs against two), API CPU per route 128 ms
 * against 155, with hours of service 116 against 145, per saved-route refetch 10.1 against 13.0.
 */
export const API_HEAP_GROWING_PERCENT = 0

/**
 * How far V8 lets the heap grow past what survived the last full collection before it collects
 * again. Left alone, V8 picks up to 4× for a process whose collections are cheap, so a pipeline
 * holding 500 MB of live data (a 200,000-record feed) reached 2.3 GB of RSS while most of it was
 * garbage. 1.3× keeps RSS near the live set for a few more full collections (measured: the
 * same poll in the same time, bench:memory). HEAP_GROWING_PERCENT sets it; 0 leaves V8's own
 * choice; unset, the role's default applies. Returns the percent applied, or null when left alone.
 */
export const limitHeapGrowth = (env: NodeJS.ProcessEnv = process.env, roleDefault = DEFAULT_HEAP_GROWING_PERCENT): number | null => {
  const raw = env.HEAP_GROWING_PERCENT
  const n = raw === undefined || raw.trim() === "" ? roleDefault : Number(raw)
  if (!Number.isInteger(n) || n < 0 || n > 1000) throw new Error(`HEAP_GROWING_PERCENT must be a whole number from 0 to 1000, got "${raw}"`)
  if (n === 0) return null
  setFlagsFromString(`--heap-growing-percent=${n}`)
  return n
}
