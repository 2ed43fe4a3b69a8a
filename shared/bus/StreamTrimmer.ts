import { Effect, Layer, Schedule } from "effect"
import { RedisStreams } from "./RedisStreams.js"

/** Trims the change stream to what some consumer group still needs, so Redis memory stays bounded. */
export const trimStream = Effect.flatMap(RedisStreams, (s) => s.trimProcessed)

export const StreamTrimmerLive = Layer.scopedDiscard(
  Effect.forkScoped(
    trimStream.pipe(
      Effect.tap((n) => (n > 0 ? Effect.logDebug(`trimmed ${n} processed changes from the stream`) : Effect.void)),
      Effect.catchAll((e) => Effect.logWarning(`stream trim failed: ${e.message}`)),
      Effect.repeat(Schedule.spaced("60 seconds"))
    )
  )
)
