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
