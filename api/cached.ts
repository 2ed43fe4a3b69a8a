import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { nowMillis } from "../shared/time/Now.js"

/*
 * In-process caches of values read from the database (metadata caches of SPEC §8). Hits are kept
 * per database client, so two apps in one process (tests, a future multi-tenant host) never see
 * each other's values even though the caches live at module level beside their routes.
 */

/** A value computed at most once per `ttlMs` (per database). */
export const cached = <A, E, R>(ttlMs: number, effect: Effect.Effect<A, E, R>) => {
  const hits = new WeakMap<object, { at: number; value: A }>()
  return Effect.flatMap(SqlClient.SqlClient, (db) =>
    Effect.flatMap(nowMillis, (now) => {
      const hit = hits.get(db)
      return hit && now - hit.at < ttlMs
        ? Effect.succeed(hit.value)
        : Effect.tap(effect, (value) => Effect.sync(() => { hits.set(db, { at: now, value }) }))
    }))
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
        return Effect.tap(effect, (value) => Effect.sync(() => {
          hits.delete(key)
          hits.set(key, { at: now, value })
          if (hits.size > max) hits.delete(hits.keys().next().value as string)
        }))
      }))
}
