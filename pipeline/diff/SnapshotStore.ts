import type { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Data, Effect, type Either, Layer, Schema } from "effect"
import { Redis, RedisError } from "../../shared/db/Redis.js"
import { RedisStreams } from "../../shared/bus/RedisStreams.js"

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
   * XADDs the changes and updates the snapshot in one MULTI/EXEC. With a fence, the EXEC only
   * goes through while this process still holds the source's poll lease (WATCH on the lease key).
   */
  readonly commit: <S>(source: string, delta: SnapshotDelta<S>, fence: Fence | null) => Effect.Effect<number, RedisError | LeaseLost>
}

/** One JSON decoder per entry Schema, built once: a poll's load is on the hot path. */
const decoders = new WeakMap<object, (text: string) => Either.Either<unknown, unknown>>()
const decoderOf = <S>(entry: Schema.Schema<S, any>) => {
  let d = decoders.get(entry)
  if (!d) decoders.set(entry, (d = Schema.decodeUnknownEither(Schema.parseJson(entry))))
  return d as (text: string) => Either.Either<S, unknown>
}

/** Every entry through its Schema, or null when any one does not decode. */
const decodeEntries = <S>(raw: Record<string, string>, entry: Schema.Schema<S, any>): Map<string, S> | null => {
  const map = new Map<string, S>()
  const decode = decoderOf(entry)
  for (const [k, v] of Object.entries(raw)) {
    const d = decode(v)
    if (d._tag === "Left") return null
    map.set(k, d.right)
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

      const load = <S>(source: string, rebuild: Effect.Effect<Map<string, S>, SqlError, SqlClient.SqlClient>, entry: Schema.Schema<S, any>) =>
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
            if (map.size > 0) m.hSet(snapKey(source), Object.fromEntries([...map].map(([k, v]) => [k, JSON.stringify(v)])))
            m.set(metaKey(source), "1")
            await m.exec()
          })
          yield* Effect.logInfo(`snapshot for ${source} rebuilt from Postgres (${map.size} records)`)
          return map
        })

      const commit = <S>(source: string, delta: SnapshotDelta<S>, fence: Fence | null) =>
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
              streams.appendInTransaction(m, delta.changes.map((ch) => JSON.stringify(ch)))
              if (delta.upserts.size > 0) {
                m.hSet(snapKey(source), Object.fromEntries([...delta.upserts].map(([k, v]) => [k, JSON.stringify(v)])))
              }
              if (delta.removals.length > 0) m.hDel(snapKey(source), [...delta.removals])
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
          Effect.flatMap((r) => (r === "ok" ? Effect.succeed(delta.changes.length) : Effect.fail(new LeaseLost({ source }))))
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
