import { Effect, Layer, Schedule } from "effect"
import { MaterializedStream, RecheckStream, RedisStreams } from "./RedisStreams.js"

/** Trims each stream to what some consumer group still needs, so Redis memory stays bounded; the count dropped. */
export const trimStream = Effect.gen(function* () {
  let trimmed = 0
  for (const streams of [yield* RedisStreams, yield* MaterializedStream, yield* RecheckStream]) trimmed += yield* streams.trimProcessed
  return trimmed
})

export const StreamTrimmerLive = Layer.scopedDiscard(
  Effect.forkScoped(
    trimStream.pipe(
      Effect.tap((n) => (n > 0 ? Effect.logDebug(`trimmed ${n} processed entries from the streams`) : Effect.void)),
      Effect.catchAll((e) => Effect.logWarning(`stream trim failed: ${e.message}`)),
      Effect.repeat(Schedule.spaced("60 seconds"))
    )
  )
)
