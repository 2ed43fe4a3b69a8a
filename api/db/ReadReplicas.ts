import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted, Schedule } from "effect"
import pg from "pg"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { pgTypes } from "../../shared/db/Database.js"
import { storeUnavailable } from "../http/unavailable.js"
import { lsnOf } from "./lsn.js"

/** What an operator sees of one replica (GET /health, metrics). */
export interface ReplicaState {
  /** host:port/database, no credentials */
  readonly name: string
  readonly up: boolean
  /** bytes of announced primary WAL this replica has not replayed yet (0 when current) */
  readonly behindBytes: number
}

export interface ReadReplicasShape {
  /**
   * Runs a read-only effect on a replica that answers and has replayed every write the
   * materializer announced so far; with none such, or when the replica fails it for want of a
   * connection, on the primary. Reads that must see the caller's own writes never come here.
   */
  readonly onReplica: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** The primary's WAL position after a change was written (from the invalidation channel). */
  readonly announced: (lsn: string) => void
  readonly states: () => ReadonlyArray<ReplicaState>
  /** reads sent here so far, by where they ran (a read that fell back counts on both) */
  readonly counts: () => { readonly replica: number; readonly primary: number }
  readonly configured: boolean
}

export class ReadReplicas extends Context.Tag("api/ReadReplicas")<ReadReplicas, ReadReplicasShape>() {}

/** How often each replica's replay position is read; it is also the replica's health probe. */
const PROBE_EVERY_MS = 200
/** A replica that failed a request is passed over this long unless a probe finds it back sooner. */
// a monotonic clock: a mark of health, never compared with data
const DOWN_FOR_MS = 5_000

interface Replica {
  readonly name: string
  readonly client: SqlClient.SqlClient
  replayed: bigint
  up: boolean
  downUntil: number
}

const displayName = (url: Redacted.Redacted<string>) => {
  try {
    const u = new URL(Redacted.value(url))
    return `${u.hostname}:${u.port || "5432"}${u.pathname}`
  } catch {
    return "replica"
  }
}

// a recovery conflict (a replayed vacuum removed rows the query needed) is the replica's, not the question's
const RECOVERY_CONFLICT = /conflict with recovery/i
const replicaFailed = (e: unknown) => {
  const x = e as { _tag?: unknown; message?: unknown; cause?: { message?: unknown } }
  if (x?._tag !== "SqlError") return false
  return storeUnavailable(e) || RECOVERY_CONFLICT.test(String(x.cause?.message ?? x.message ?? ""))
}

const none: ReadReplicasShape = {
  onReplica: (effect) => effect,
  announced: () => undefined,
  states: () => [],
  counts: () => ({ replica: 0, primary: 0 }),
  configured: false
}

const connect = (url: Redacted.Redacted<string>, maxConnections: number) =>
  PgClient.fromPool({
    // no connection is tried here: the API starts, and answers from the primary, with a replica away
    acquire: Effect.acquireRelease(
      Effect.sync(() => {
        const pool = new pg.Pool({
          connectionString: Redacted.value(url),
          max: maxConnections,
          connectionTimeoutMillis: 2_000,
          application_name: "road-data-replica-read",
          types: pgTypes
        })
        // an idle connection the replica closed must not take the process down
        pool.on("error", () => undefined)
        return pool
      }),
      // interruptible, or the timeout could not stop it: a release runs uninterruptibly
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1_000))
    ),
    types: pgTypes
  }).pipe(Effect.provide(Reactivity.layer))

/**
 * The API's read replicas: every DATABASE_READ_URL gets a pool of its own. A replica
 * is used while its last probe answered and it has replayed up to the newest write announced on
 * the invalidation channel, so an answer (and the shared copy kept of it) is never older than a
 * change the API already heard of; otherwise the read runs on the primary.
 */
export const ReadReplicasLive = Layer.scoped(
  ReadReplicas,
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (config.databaseReadUrls.length === 0) return none
    const replicas: Array<Replica> = []
    for (const url of config.databaseReadUrls) {
      replicas.push({ name: displayName(url), client: yield* connect(url, 10), replayed: -1n, up: false, downUntil: 0 })
    }
    let wanted = 0n
    let next = 0
    const counts = { replica: 0, primary: 0 }
    const probe = (r: Replica) =>
      r.client<{
        lsn: string | null
      }>`SELECT COALESCE(pg_last_wal_replay_lsn(), pg_current_wal_lsn())::text AS lsn`.pipe(
        Effect.timeout("1 second"),
        Effect.tap(([row]) =>
          Effect.sync(() => {
            r.replayed = lsnOf(row?.lsn ?? null) ?? -1n
            if (!r.up) r.downUntil = 0
            r.up = true
          })
        ),
        Effect.catchAll(() =>
          Effect.sync(() => {
            r.up = false
          })
        ),
        Effect.withTracerEnabled(false)
      )
    for (const r of replicas)
      yield* Effect.forkScoped(Effect.repeat(probe(r), Schedule.spaced(`${PROBE_EVERY_MS} millis`)))
    yield* Effect.logInfo(`API reads on ${replicas.length} replica(s): ${replicas.map((r) => r.name).join(", ")}`)

    const pick = (): Replica | undefined => {
      const now = performance.now()
      for (let i = 0; i < replicas.length; i++) {
        const r = replicas[(next + i) % replicas.length]
        if (r.up && now >= r.downUntil && r.replayed >= wanted) {
          next = (next + i + 1) % replicas.length
          return r
        }
      }
      return undefined
    }
    return {
      configured: true,
      counts: () => ({ ...counts }),
      announced: (lsn) => {
        const at = lsnOf(lsn)
        if (at !== undefined && at > wanted) wanted = at
      },
      states: () =>
        replicas.map((r) => ({
          name: r.name,
          up: r.up && performance.now() >= r.downUntil,
          behindBytes: r.replayed >= wanted ? 0 : Number(wanted - r.replayed)
        })),
      onReplica: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.suspend(() => {
          const r = pick()
          if (r === undefined) {
            counts.primary++
            return effect
          }
          counts.replica++
          return effect.pipe(
            Effect.provideService(SqlClient.SqlClient, r.client),
            Effect.catchAll((e) => {
              if (!replicaFailed(e)) return Effect.fail(e)
              r.downUntil = performance.now() + DOWN_FOR_MS
              counts.primary++
              return Effect.zipRight(
                Effect.logWarning(
                  `replica ${r.name} failed a read (${String((e as { message?: unknown }).message)}); on the primary for ${DOWN_FOR_MS / 1000} s`
                ),
                effect
              )
            })
          )
        })
    }
  })
)
