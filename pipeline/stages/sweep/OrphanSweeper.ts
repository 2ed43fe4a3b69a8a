import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Random, Schedule } from "effect"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { Redis } from "../../../shared/db/Redis.js"
import { sweepStale } from "../../diff/staleSweep.js"
import { eventSnapshotFromPg } from "../../diff/snapshotRebuild.js"
import { SnapshotStore } from "../../diff/SnapshotStore.js"
import { eventKind } from "../../diff/kinds.js"
import { adapters } from "../../sources/registry.js"
import { acquireLease, holdLeaseFor, leaseKey } from "../../poll/Lease.js"
import { SourceCatalogue } from "../../poll/SourceCatalogue.js"

/**
 * Pollers sweep their own sources. A source taken out of the catalogue has no poller, so its
 * active events would never retire: this stage finds such snapshots and applies the same stale
 * sweep (poll interval from the last catalogue that had the source, × SWEEP_FACTOR).
 */
export const sweepOrphans = Effect.gen(function* () {
  const redis = yield* Redis
  const store = yield* SnapshotStore
  const config = yield* AppConfig
  const sql = yield* SqlClient.SqlClient
  const catalogued = new Set((yield* SourceCatalogue).map((s) => s.id))
  const metaKeys = yield* redis.use("scan snapshots", async (c) => {
    const keys: Array<string> = []
    for await (const k of c.scanIterator({ MATCH: redis.key("snap", "*", "meta"), COUNT: 500 })) keys.push(String(k))
    return keys
  })
  const head = redis.key("snap", "")
  const orphans = metaKeys
    .map((k) => k.slice(head.length, -":meta".length))
    .filter((s) => s !== "" && !catalogued.has(s))
  let archived = 0
  for (const source of orphans) {
    const rows = yield* sql<{
      poll_interval_s: number
      adapter: string
    }>`SELECT poll_interval_s, adapter FROM sources WHERE id = ${source}`
    // features do not go stale: a feature source's rows stay as last published
    if (rows[0] && adapters.get(rows[0].adapter)?.kind === "features") continue
    const intervalMs = (rows[0]?.poll_interval_s ?? 60) * 1000
    const token = `sweeper-${(yield* Random.nextInt).toString(36)}`
    if (!(yield* acquireLease(redis, source, token, 30_000))) continue
    const now = new Date(yield* Clock.currentTimeMillis)
    const result = sweepStale(
      source,
      yield* store.load(source, eventSnapshotFromPg(source), eventKind.entry),
      now,
      intervalMs * config.sweepFactor
    )
    if (result.changes.length > 0) {
      archived += yield* store.commit(source, result, { key: leaseKey(redis, source), token })
      yield* Effect.logInfo(`swept ${result.changes.length} stale events of uncatalogued source ${source}`)
    }
    yield* holdLeaseFor(redis, source, token, 1)
  }
  return archived
})

export const OrphanSweeperLive = Layer.scopedDiscard(
  Effect.forkScoped(
    sweepOrphans.pipe(
      Effect.catchAll((e) => Effect.logWarning(`orphan sweep failed: ${e._tag}`)),
      Effect.repeat(Schedule.spaced("60 seconds"))
    )
  )
)
