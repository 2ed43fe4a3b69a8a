import { Effect, Layer, Schedule } from "effect"
import { MaterializedStream, RecheckStream, RedisStreams } from "./RedisStreams.js"

/**
 * Trims each stream to what some consumer group still needs, so Redis memory stays bounded;
 * answers the entries dropped, by stream name.
 */
export const trimStream = Effect.gen(function* () {
  const trimmed: Record<string, number> = {}
  for (const streams of [yield* RedisStreams, yield* MaterializedStream, yield* RecheckStream])
    trimmed[streams.name] = yield* streams.trimProcessed
  return trimmed
})

const described = (trimmed: Record<string, number>) =>
  Object.entries(trimmed)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${n} from ${name}`)
    .join(", ")

export const StreamTrimmerLive = Layer.scopedDiscard(
  Effect.forkScoped(
    trimStream.pipe(
      Effect.tap((t) =>
        described(t) === "" ? Effect.void : Effect.logDebug(`trimmed processed entries: ${described(t)}`)
      ),
      Effect.catchAll((e) => Effect.logWarning(`stream trim failed: ${e.message}`)),
      Effect.repeat(Schedule.spaced("60 seconds"))
    )
  )
)
