import { SqlClient } from "@effect/sql"
import { Deferred, Effect, Exit, FiberId } from "effect"
import { nowMillis } from "../shared/time/Now.js"
import { trimOldest } from "../shared/cache/trimOldest.js"

/*
 * In-process caches of values read from the database (metadata caches of SPEC §8). Hits are kept
 * per database client, so two apps in one process (tests, a future multi-tenant host) never see
 * each other's values even though the caches live at module level beside their routes.
 */

/** A value is refreshed in the background once this share of its lifetime has passed. */
const REFRESH_AHEAD = 0.8
/** How soon a background refresh that failed is tried again. */
const RETRY_AFTER_FAILURE_MS = 5_000

interface Slot<A, E> {
  at: number
  value: { readonly v: A } | undefined
  pending: Deferred.Deferred<A, E> | undefined
  failedAt: number
}

/**
 * A value computed at most once per `ttlMs` (per database), never served older than that. Some
 * are whole-table scans (feature counts take seconds on millions of rows), so callers never
 * stampede: all who find no fresh value share one computation, and under steady traffic the
 * value is recomputed in the background before it expires, so nobody waits for it at all.
 */
export const cached = <A, E, R>(ttlMs: number, effect: Effect.Effect<A, E, R>) => {
  const slots = new WeakMap<object, Slot<A, E>>()
  return Effect.flatMap(SqlClient.SqlClient, (db) =>
    Effect.flatMap(nowMillis, (now): Effect.Effect<A, E, R> => {
      let slot = slots.get(db)
      if (slot === undefined) {
        slot = { at: 0, value: undefined, pending: undefined, failedAt: Number.NEGATIVE_INFINITY }
        slots.set(db, slot)
      }
      const s = slot
      const refresh = () =>
        Effect.suspend(() => {
          if (s.pending) return Effect.succeed(s.pending)
          const done = Deferred.unsafeMake<A, E>(FiberId.none)
          s.pending = done
          const settle = (exit: Exit.Exit<A, E>) =>
            Effect.sync(() => {
              s.pending = undefined
              if (Exit.isSuccess(exit)) {
                s.value = { v: exit.value }
                s.at = now
              } else s.failedAt = now
            }).pipe(Effect.zipRight(Deferred.done(done, exit)))
          // a daemon: a caller that goes away does not take the shared computation with it
          return Effect.as(Effect.forkDaemon(Effect.flatMap(Effect.exit(effect), settle)), done)
        })
      const age = now - s.at
      if (s.value && age < ttlMs) {
        const ahead = age >= ttlMs * REFRESH_AHEAD && !s.pending && now - s.failedAt >= RETRY_AFTER_FAILURE_MS
        return ahead ? Effect.as(refresh(), s.value.v) : Effect.succeed(s.value.v)
      }
      return Effect.flatMap(refresh(), Deferred.await)
    })
  )
}

/** Like `cached`, per key, holding at most `max` keys per database (oldest dropped first). */
export const keyedCache = <A, E, R>(ttlMs: number, max: number) => {
  const perDb = new WeakMap<object, Map<string, { at: number; value: A }>>()
  return (key: string, effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(SqlClient.SqlClient, (db) =>
      Effect.flatMap(nowMillis, (now) => {
        const hits = perDb.get(db) ?? new Map<string, { at: number; value: A }>()
        perDb.set(db, hits)
        const hit = hits.get(key)
        if (hit && now - hit.at < ttlMs) return Effect.succeed(hit.value)
        return Effect.tap(effect, (value) =>
          Effect.sync(() => {
            hits.delete(key)
            hits.set(key, { at: now, value })
            trimOldest(hits, max)
          })
        )
      })
    )
}
