import { SqlClient } from "@effect/sql"
import { Context, Data, Effect, Layer } from "effect"
import type { SqlError } from "@effect/sql/SqlError"
import { Redis, RedisError } from "../../shared/db/Redis.js"
import type { EventStatus, Severity } from "../../shared/domain/Event.js"
import { RedisStreams } from "../bus/RedisStreams.js"
import { type DiffResult, type SnapEntry, TOMBSTONE_MS } from "./Differ.js"

export class LeaseLost extends Data.TaggedError("LeaseLost")<{ readonly source: string }> {}

export interface Fence {
  readonly key: string
  readonly token: string
}

export interface SnapshotStoreService {
  /** The source's snapshot; rebuilt from Postgres when Redis has lost it (restart without persistence). */
  readonly load: (source: string) => Effect.Effect<Map<string, SnapEntry>, RedisError | SqlError>
  /**
   * XADDs the changes and updates the snapshot in one MULTI/EXEC. With a fence, the EXEC only
   * goes through while this process still holds the source's poll lease (WATCH on the lease key).
   */
  readonly commit: (source: string, result: DiffResult, fence: Fence | null) => Effect.Effect<number, RedisError | LeaseLost>
}

interface PgSnapRow {
  readonly id: string
  readonly source_id: string
  readonly version: number
  readonly content_hash: string
  readonly severity: Severity
  readonly status: EventStatus
  readonly end_at: string | null
  readonly lanes_affected: string | null
  readonly last_seen_at: string
  readonly archived_at: string | null
  readonly jurisdiction: string
  readonly type: string
  readonly sub_type: string | null
  readonly cause: string | null
  readonly road_name: string | null
}

const fromRow = (r: PgSnapRow): SnapEntry => ({
  id: r.id,
  v: r.version,
  h: r.content_hash,
  sev: r.severity,
  st: r.status,
  end: r.end_at,
  lanes: r.lanes_affected,
  seen: Date.parse(r.last_seen_at),
  ...(r.archived_at ? { ax: Date.parse(r.archived_at) } : {}),
  k: { jurisdiction: r.jurisdiction, type: r.type, sub_type: r.sub_type, cause: r.cause, severity: r.severity, road_name: r.road_name }
})

export class SnapshotStore extends Context.Tag("pipeline/SnapshotStore")<SnapshotStore, SnapshotStoreService>() {
  static readonly layer = Layer.effect(
    SnapshotStore,
    Effect.gen(function* () {
      const redis = yield* Redis
      const streams = yield* RedisStreams
      const sql = yield* SqlClient.SqlClient
      const snapKey = (source: string) => redis.key("snap", source)
      const metaKey = (source: string) => redis.key("snap", source, "meta")

      const rebuild = (source: string) =>
        Effect.gen(function* () {
          const rows = yield* sql<PgSnapRow>`
            SELECT id, source_id, version, content_hash, severity, status,
                   to_char(COALESCE(end_time, estimated_end_time) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS end_at,
                   lanes_affected, last_seen_at, archived_at, jurisdiction, type, sub_type, cause,
                   affected_roads[1] AS road_name
            FROM events
            WHERE source = ${source}
              AND (status = 'active' OR archived_at > now() - make_interval(secs => ${TOMBSTONE_MS / 1000}))`
          const map = new Map(rows.map((r) => [r.source_id, fromRow(r)] as const))
          yield* redis.use("snapshot rebuild", async (c) => {
            const m = c.multi()
            if (map.size > 0) m.hSet(snapKey(source), Object.fromEntries([...map].map(([k, v]) => [k, JSON.stringify(v)])))
            m.set(metaKey(source), "1")
            await m.exec()
          })
          yield* Effect.logInfo(`snapshot for ${source} rebuilt from Postgres (${map.size} events)`)
          return map
        })

      const load = (source: string) =>
        Effect.gen(function* () {
          const [exists, raw] = yield* redis.use("snapshot load", (c) =>
            Promise.all([c.exists(metaKey(source)), c.hGetAll(snapKey(source))])
          )
          if (exists === 0) return yield* rebuild(source)
          const map = new Map<string, SnapEntry>()
          for (const [k, v] of Object.entries(raw)) map.set(k, JSON.parse(v) as SnapEntry)
          return map
        })

      const commit = (source: string, result: DiffResult, fence: Fence | null) =>
        Effect.tryPromise({
          try: () =>
            redis.client.executeIsolated(async (c) => {
              if (fence) {
                await c.watch(fence.key)
                if ((await c.get(fence.key)) !== fence.token) {
                  await c.unwatch()
                  return "lease-lost" as const
                }
              }
              const m = c.multi()
              for (const ch of result.changes) m.xAdd(streams.streamKey, "*", { c: JSON.stringify(ch) })
              if (result.upserts.size > 0) {
                m.hSet(snapKey(source), Object.fromEntries([...result.upserts].map(([k, v]) => [k, JSON.stringify(v)])))
              }
              if (result.removals.length > 0) m.hDel(snapKey(source), [...result.removals])
              m.set(metaKey(source), "1")
              try {
                await m.exec()
              } catch (e) {
                if ((e as Error).name === "WatchError") return "lease-lost" as const
                throw e
              }
              return "ok" as const
            }),
          catch: (cause) => new RedisError({ op: "snapshot commit", cause })
        }).pipe(
          Effect.flatMap((r) => (r === "ok" ? Effect.succeed(result.changes.length) : Effect.fail(new LeaseLost({ source }))))
        )

      return { load, commit } satisfies SnapshotStoreService
    })
  )
}
