import { Effect, Layer, Schedule } from "effect"
import { Redis } from "../../shared/db/Redis.js"
import { RedisStreams } from "./RedisStreams.js"

const compareIds = (a: string, b: string) => {
  const [am, as] = a.split("-").map(Number)
  const [bm, bs] = b.split("-").map(Number)
  return am - bm || as - bs
}

/**
 * The oldest entry some group still needs: its oldest pending message, or the last one it was
 * given. Everything before the minimum over groups has been processed by every stage.
 */
export const safeTrimPoint = Effect.gen(function* () {
  const streams = yield* RedisStreams
  const redis = yield* Redis
  const groups = yield* streams.groups
  if (groups.length === 0) return null
  let point: string | null = null
  for (const g of groups) {
    let needed = g.lastDeliveredId
    if (g.pending > 0) {
      const summary = yield* redis.use("xpending", (c) => c.xPending(streams.streamKey, g.group))
      if (summary.firstId) needed = summary.firstId
    }
    if (point === null || compareIds(needed, point) < 0) point = needed
  }
  return point
})

/** Trims the change stream to what some consumer group still needs, so Redis memory stays bounded. */
export const trimStream = Effect.gen(function* () {
  const streams = yield* RedisStreams
  const redis = yield* Redis
  const point = yield* safeTrimPoint
  if (point === null || point === "0-0") return 0
  // node-redis types MINID thresholds as numbers; stream ids are strings, so send the command as is
  return yield* redis.use("xtrim", (c) => c.sendCommand<number>(["XTRIM", streams.streamKey, "MINID", point]))
})

export const StreamTrimmerLive = Layer.scopedDiscard(
  Effect.forkScoped(
    trimStream.pipe(
      Effect.tap((n) => (n > 0 ? Effect.logDebug(`trimmed ${n} processed changes from the stream`) : Effect.void)),
      Effect.catchAll((e) => Effect.logWarning(`stream trim failed: ${e.message}`)),
      Effect.repeat(Schedule.spaced("60 seconds"))
    )
  )
)
