import { Effect } from "effect"

/** A value computed at most once per `ttlMs` in this process (metadata caches of SPEC §8). */
export const cached = <A, E, R>(ttlMs: number, effect: Effect.Effect<A, E, R>) => {
  let hit: { at: number; value: A } | null = null
  return Effect.suspend(() =>
    hit && Date.now() - hit.at < ttlMs
      ? Effect.succeed(hit.value)
      : Effect.tap(effect, (value) => Effect.sync(() => { hit = { at: Date.now(), value } }))
  )
}

/** Like `cached`, per key, holding at most `max` keys (oldest dropped first). */
export const keyedCache = <A, E, R>(ttlMs: number, max: number) => {
  const hits = new Map<string, { at: number; value: A }>()
  return (key: string, effect: Effect.Effect<A, E, R>) =>
    Effect.suspend(() => {
      const hit = hits.get(key)
      if (hit && Date.now() - hit.at < ttlMs) return Effect.succeed(hit.value)
      return Effect.tap(effect, (value) => Effect.sync(() => {
        hits.delete(key)
        hits.set(key, { at: Date.now(), value })
        if (hits.size > max) hits.delete(hits.keys().next().value as string)
      }))
    })
}
