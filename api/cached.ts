import { Effect } from "effect"
import { nowMillis } from "../shared/time/Now.js"

/** A value computed at most once per `ttlMs` in this process (metadata caches of SPEC §8). */
export const cached = <A, E, R>(ttlMs: number, effect: Effect.Effect<A, E, R>) => {
  let hit: { at: number; value: A } | null = null
  return Effect.flatMap(nowMillis, (now) =>
    hit && now - hit.at < ttlMs
      ? Effect.succeed(hit.value)
      : Effect.tap(effect, (value) => Effect.sync(() => { hit = { at: now, value } }))
  )
}

/** Like `cached`, per key, holding at most `max` keys (oldest dropped first). */
export const keyedCache = <A, E, R>(ttlMs: number, max: number) => {
  const hits = new Map<string, { at: number; value: A }>()
  return (key: string, effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(nowMillis, (now) => {
      const hit = hits.get(key)
      if (hit && now - hit.at < ttlMs) return Effect.succeed(hit.value)
      return Effect.tap(effect, (value) => Effect.sync(() => {
        hits.delete(key)
        hits.set(key, { at: now, value })
        if (hits.size > max) hits.delete(hits.keys().next().value as string)
      }))
    })
}
