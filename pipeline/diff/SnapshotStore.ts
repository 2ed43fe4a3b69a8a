import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Data, Effect, Layer, Schema } from "effect"
import { compiledGuard } from "../../shared/schema/compiledGuard.js"
import { Redis, RedisError } from "../../shared/db/Redis.js"
import { RedisStreams } from "../../shared/bus/RedisStreams.js"
import { currentTraceparent } from "../../shared/observability/Tracing.js"

export class LeaseLost extends Data.TaggedError("LeaseLost")<{ readonly source: string }> {}

export interface Fence {
  readonly key: string
  readonly token: string
}

/** What one poll writes: the changes for the stream and the snapshot entries that moved. */
export interface SnapshotDelta<S> {
  readonly changes: ReadonlyArray<unknown>
  readonly upserts: ReadonlyMap<string, S>
  readonly removals: ReadonlyArray<string>
  /** records the poll held whose entries were not rewritten (seen recently enough: `seenRefreshMs`) */
  readonly present?: ReadonlySet<string>
}

export interface SnapshotStoreService {
  /**
   * The source's snapshot (upstream id → entry). When Redis has lost it (a restart without
   * persistence) it is rebuilt from Postgres with `rebuild`, instead of every record looking new.
   */
  readonly load: <S>(
    source: string,
    rebuild: Effect.Effect<Map<string, S>, SqlError, SqlClient.SqlClient>,
    entry: Schema.Schema<S, any>
  ) => Effect.Effect<Map<string, S>, RedisError | SqlError, SqlClient.SqlClient>
  /**
   * XADDs the changes and updates the snapshot, in chunks of records: each chunk is one
   * MULTI/EXEC holding a record's change together with its entry, so a commit cut short leaves
   * every record either committed or as it was (the next poll finds the rest), and a large feed
   * never builds one transaction of its whole size. With a fence, each EXEC only goes through
   * while this process still holds the source's poll lease (WATCH on the lease key).
   */
  readonly commit: <S>(
    source: string,
    delta: SnapshotDelta<S>,
    fence: Fence | null
  ) => Effect.Effect<number, RedisError | LeaseLost>
}

/** Records per commit transaction: bounds the memory and the Redis command a poll of a huge feed builds. */
export const COMMIT_CHUNK = 2000

/**
 * A delta cut into chunks of at most `size` snapshot entries, each chunk with the changes of its
 * records (a change's `source_id` is its record's snapshot key). Changes of records without an
 * entry, and the removals, go in the last chunk. An empty delta is one empty chunk, so the
 * snapshot is still marked present.
 */
export const commitChunks = <S>(delta: SnapshotDelta<S>, size: number): Array<SnapshotDelta<S>> => {
  const byRecord = new Map<string, Array<unknown>>()
  const orphans: Array<unknown> = []
  for (const ch of delta.changes) {
    const key = (ch as { source_id?: unknown }).source_id
    if (typeof key === "string" && delta.upserts.has(key)) {
      const list = byRecord.get(key)
      if (list) list.push(ch)
      else byRecord.set(key, [ch])
    } else orphans.push(ch)
  }
  const chunks: Array<SnapshotDelta<S>> = []
  let upserts = new Map<string, S>()
  let changes: Array<unknown> = []
  for (const [k, v] of delta.upserts) {
    upserts.set(k, v)
    const own = byRecord.get(k)
    if (own) changes.push(...own)
    if (upserts.size >= size) {
      chunks.push({ changes, upserts, removals: [] })
      upserts = new Map()
      changes = []
    }
  }
  chunks.push({ changes: [...changes, ...orphans], upserts, removals: delta.removals })
  return chunks
}

/**
 * Every entry checked against its Schema (JSON.parse, then the compiled guard: entries are plain
 * structs, so a valid entry is its own decoded value), or null when any one does not decode.
 * Exported for bench:ingest, which times a poll's snapshot load with it.
 */
export const decodeEntries = <S>(raw: Record<string, string>, entry: Schema.Schema<S, any>): Map<string, S> | null => {
  const map = new Map<string, S>()
  const valid = compiledGuard(entry)
  for (const [k, v] of Object.entries(raw)) {
    let u: unknown
    try {
      u = JSON.parse(v)
    } catch {
      return null
    }
    if (!valid(u)) return null
    map.set(k, u)
  }
  return map
}

export class SnapshotStore extends Context.Tag("pipeline/SnapshotStore")<SnapshotStore, SnapshotStoreService>() {
  static readonly layer = Layer.effect(
    SnapshotStore,
    Effect.gen(function* () {
      const redis = yield* Redis
      const streams = yield* RedisStreams
      const snapKey = (source: string) => redis.key("snap", source)
      const metaKey = (source: string) => redis.key("snap", source, "meta")

      const load = <S>(
        source: string,
        rebuild: Effect.Effect<Map<string, S>, SqlError, SqlClient.SqlClient>,
        entry: Schema.Schema<S, any>
      ) =>
        Effect.gen(function* () {
          const [exists, raw] = yield* redis.use("snapshot load", (c) =>
            Promise.all([c.exists(metaKey(source)), c.hGetAll(snapKey(source))])
          )
          if (exists === 1) {
            const decoded = decodeEntries(raw, entry)
            if (decoded) return decoded
            // a malformed entry (a foreign writer, an old shape): trust Postgres, not the cache
            yield* Effect.logWarning(`snapshot for ${source} holds a malformed entry; rebuilding it from Postgres`)
          }
          const map = yield* rebuild
          yield* redis.use("snapshot rebuild", async (c) => {
            const m = c.multi().del(snapKey(source))
            if (map.size > 0)
              m.hSet(snapKey(source), Object.fromEntries([...map].map(([k, v]) => [k, JSON.stringify(v)])))
            m.set(metaKey(source), "1")
            await m.exec()
          })
          yield* Effect.logInfo(`snapshot for ${source} rebuilt from Postgres (${map.size} records)`)
          return map
        })

      /**
       * One chunk in one MULTI/EXEC, fenced on the lease: its changes and their entries land together or not at all.
       */
      const commitChunk = <S>(
        source: string,
        chunk: SnapshotDelta<S>,
        fence: Fence | null,
        traceparent: string | undefined
      ) =>
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
              streams.appendInTransaction(
                m,
                chunk.changes.map((ch) => JSON.stringify(ch)),
                traceparent
              )
              if (chunk.upserts.size > 0) {
                m.hSet(snapKey(source), Object.fromEntries([...chunk.upserts].map(([k, v]) => [k, JSON.stringify(v)])))
              }
              if (chunk.removals.length > 0) m.hDel(snapKey(source), [...chunk.removals])
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
        }).pipe(Effect.flatMap((r) => (r === "ok" ? Effect.void : Effect.fail(new LeaseLost({ source })))))

      const commit = <S>(source: string, delta: SnapshotDelta<S>, fence: Fence | null) =>
        Effect.gen(function* () {
          let done = 0
          const traceparent = yield* currentTraceparent
          for (const chunk of commitChunks(delta, COMMIT_CHUNK)) {
            yield* commitChunk(source, chunk, fence, traceparent)
            done += chunk.changes.length
          }
          return done
        }).pipe(
          // a lease lost after some chunks: those stay (each whole), the rest is the next poll's to find
          Effect.tapErrorTag("LeaseLost", () =>
            Effect.logWarning(`snapshot commit for ${source} stopped: the poll lease moved to another process`)
          )
        )

      return { load, commit } satisfies SnapshotStoreService
    })
  )
}

/**
 * An in-memory snapshot store for tests of the poll step: the same contract without Redis. A
 * source starts from `initial` (else empty), never from Postgres; committed changes are kept in
 * `committed` (in order) for the test to read.
 */
export const makeTestSnapshotStore = (initial: ReadonlyMap<string, ReadonlyMap<string, unknown>> = new Map()) => {
  const snaps = new Map([...initial].map(([k, v]) => [k, new Map(v)] as const))
  const committed: Array<unknown> = []
  const service: SnapshotStoreService = {
    load: <S>(source: string) => Effect.sync(() => new Map(snaps.get(source) ?? []) as Map<string, S>),
    commit: <S>(source: string, delta: SnapshotDelta<S>) =>
      Effect.sync(() => {
        const snap = snaps.get(source) ?? new Map<string, unknown>()
        for (const [k, v] of delta.upserts) snap.set(k, v)
        for (const k of delta.removals) snap.delete(k)
        snaps.set(source, snap)
        committed.push(...delta.changes)
        return delta.changes.length
      })
  }
  return { layer: Layer.succeed(SnapshotStore, service), committed, snapshot: (source: string) => snaps.get(source) }
}
