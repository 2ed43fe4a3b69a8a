import cluster from "node:cluster"
import { Effect, Layer } from "effect"
import { ApiBaseLive } from "../db/BaseLive.js"
import { TracingLive } from "../../shared/observability/Tracing.js"
import { runMain, shutdownTimeoutMs } from "../../shared/runMain.js"
import { setFlagsFromString } from "node:v8"
import { API_HEAP_GROWING_PERCENT, pretenuringArgs, semiSpaceArgs } from "../../shared/lifecycle/heapGrowth.js"
import { poolSizeArgs } from "../../shared/lifecycle/gcThreads.js"
import { apiWorkersConfig } from "../../shared/config/AppConfig.js"
import { runClusterPrimary, workerSignals } from "../../shared/lifecycle/runCluster.js"
import { ApiServerLive } from "../../api/server.js"

/**
 * The API role: API_WORKERS processes (default: the machine's cores) sharing one port through
 * node:cluster; they share rate limits, quotas and cache invalidation through Redis. With one
 * worker the API runs in this process. Workers start with a larger young generation
 * (API_SEMI_SPACE_MB), a V8 thread pool of their share of the cores (API_V8_POOL_SIZE; a single
 * process takes Node's flags as started) and, as a single process does, without allocation-site
 * pretenuring (API_PRETENURING).
 */
const workers = Effect.runSync(apiWorkersConfig)
if (cluster.isPrimary && workers > 1)
  runClusterPrimary({
    workers,
    name: "api",
    shutdownTimeoutMs,
    workerArgs: [...semiSpaceArgs(), ...pretenuringArgs(), ...poolSizeArgs(workers)]
  })
else {
  // a single process sets it before it serves anything; a cluster worker was started with it, so this finds it given
  for (const flag of pretenuringArgs()) setFlagsFromString(flag)
  runMain(Layer.launch(ApiServerLive().pipe(Layer.provide(ApiBaseLive), Layer.provide(TracingLive("api")))), {
    signals: workerSignals(),
    heapGrowingPercent: API_HEAP_GROWING_PERCENT
  })
}
