import { availableParallelism } from "node:os"
import { flagGiven, wholeNumberSetting } from "./v8Settings.js"

/**
 * The API workers' V8 thread pool (`--v8-pool-size`: the threads that mark, scavenge and sweep
 * beside a worker's own thread). Node starts 4 whatever the machine, so two workers on two cores
 * bring eight collector threads; a full collection's concurrent marking in one worker then takes
 * both cores for a few hundred ms, and Postgres, Redis and the other worker wait behind it. At
 * cores ÷ workers the refetch tail at bench:routing is lower and steadier (docs/BENCHMARKS.md).
 */
export const apiPoolSize = (workers: number, cores: number = availableParallelism()) =>
  Math.max(1, Math.floor(cores / Math.max(1, workers)))

/**
 * The flag a cluster primary passes its workers for API_V8_POOL_SIZE (unset: `apiPoolSize`; 0
 * leaves Node's own): none when the process's own flags or NODE_OPTIONS already give one. The
 * pool is made once, at start, so it is set where the worker is started.
 */
export const poolSizeArgs = (
  workers: number,
  env: NodeJS.ProcessEnv = process.env,
  execArgv: ReadonlyArray<string> = process.execArgv,
  cores: number = availableParallelism()
): Array<string> => {
  const n = wholeNumberSetting(env, "API_V8_POOL_SIZE", apiPoolSize(workers, cores), 64, "threads")
  return n === 0 || flagGiven(/^--v8[-_]pool[-_]size/, env, execArgv) ? [] : [`--v8-pool-size=${n}`]
}
