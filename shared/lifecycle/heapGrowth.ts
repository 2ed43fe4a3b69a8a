import { setFlagsFromString } from "node:v8"
import { flagGiven, wholeNumberSetting } from "./v8Settings.js"

/** What HEAP_GROWING_PERCENT defaults to: see `limitHeapGrowth`. */
export const DEFAULT_HEAP_GROWING_PERCENT = 30
/**
 * The API role's default: V8's own. An API worker holds little live data and makes a lot of
 * short-lived garbage, so the tighter limit buys it little memory and costs it full collections
 * (a fifth of its CPU a route at bench:routing).
 */
export const API_HEAP_GROWING_PERCENT = 0

/**
 * How far V8 lets the heap grow past what survived the last full collection before it collects
 * again. Left alone, V8 picks up to 4× for a process whose collections are cheap, so a pipeline
 * holding 500 MB of live data (a 200,000-record feed) reached 2.3 GB of RSS while most of it was
 * garbage. 1.3× keeps RSS near the live set for a few more full collections, in the same poll
 * time (bench:memory). HEAP_GROWING_PERCENT sets it; 0 leaves V8's own
 * choice; unset, the role's default applies. Returns the percent applied, or null when left alone.
 */
export const limitHeapGrowth = (
  env: NodeJS.ProcessEnv = process.env,
  roleDefault = DEFAULT_HEAP_GROWING_PERCENT
): number | null => {
  const n = wholeNumberSetting(env, "HEAP_GROWING_PERCENT", roleDefault, 1000)
  if (n === 0) return null
  setFlagsFromString(`--heap-growing-percent=${n}`)
  return n
}

/**
 * The API workers' young generation (V8's semi-space, in MB): a route request allocates tens of
 * MB that live as long as the request (rows read, covers, the answer), and with V8's default
 * (16 MB) much of it outlives two scavenges and is copied into the old generation, to be
 * collected again by a full collection. A small gain at bench:routing (a fleet's time; the
 * rest within the machine's noise: docs/BENCHMARKS.md).
 */
export const API_SEMI_SPACE_MB = 32

/**
 * The flag a cluster primary passes its workers for API_SEMI_SPACE_MB (default `roleDefault`; 0
 * leaves V8's own): none when the process's own flags or NODE_OPTIONS already set one. V8 sizes
 * its heap once, at start, so it is set where the worker is started.
 */
export const semiSpaceArgs = (
  env: NodeJS.ProcessEnv = process.env,
  execArgv: ReadonlyArray<string> = process.execArgv,
  roleDefault = API_SEMI_SPACE_MB
): Array<string> => {
  const n = wholeNumberSetting(env, "API_SEMI_SPACE_MB", roleDefault, 1024, "MB")
  return n === 0 || flagGiven(/^--max[-_]semi[-_]space[-_]size/, env, execArgv) ? [] : [`--max-semi-space-size=${n}`]
}

/**
 * The API's V8 flag against allocation-site pretenuring, unless API_PRETENURING=on or the flag is
 * already given (the process's own flags, NODE_OPTIONS). Pretenuring puts objects made at a site
 * whose objects often survive straight into the old generation; in an API worker those are a
 * request's own objects (a fiber's stack, a driver's row arrays), which then point at the
 * request's young data, and everything they point at outlives each young-generation collection
 * until a full one. Measured with one API process answering the bench's saved-route refetches
 *: 7.5 kB promoted a refetch without it, 94–160 kB with it once V8 had decided to
 * pretenure (after the run's first full collection).
 */
export const pretenuringArgs = (
  env: NodeJS.ProcessEnv = process.env,
  execArgv: ReadonlyArray<string> = process.execArgv
): Array<string> => {
  const raw = (env.API_PRETENURING ?? "").trim()
  if (raw !== "" && raw !== "on" && raw !== "off")
    throw new Error(`API_PRETENURING must be "on" or "off", got "${env.API_PRETENURING}"`)
  return raw === "on" || flagGiven(/^--(no[-_])?allocation[-_]site[-_]pretenuring/, env, execArgv)
    ? []
    : ["--no-allocation-site-pretenuring"]
}
