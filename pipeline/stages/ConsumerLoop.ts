import { Clock, Effect, Either, Fiber, Metric, Schedule } from "effect"
import { Redis } from "../../shared/db/Redis.js"
import type { Change } from "../../shared/domain/Change.js"
import { decodeChange } from "../../shared/domain/Change.js"
import { RedisStreams, type StreamMessage } from "../../shared/bus/RedisStreams.js"
import { changesMaterialized, deadLettered } from "./metrics.js"

export interface ConsumerOptions {
  readonly group: string
  readonly consumer: string
  readonly batchSize: number
  readonly blockMs: number
  /** a pending message idle this long belongs to a dead consumer and is reclaimed */
  readonly claimIdleMs: number
  /** deliveries after which a failing message goes to the dead-letter stream */
  readonly maxDeliveries: number
  /** where a new group starts reading: "0" (default) the whole stream, "$" only new changes */
  readonly startId?: string
}

export const defaultConsumerOptions = (group: string, consumer: string): ConsumerOptions => ({
  group, consumer, batchSize: 1000, blockMs: 1000, claimIdleMs: 30_000, maxDeliveries: 5
})

/**
 * The shape every stage shares: read a batch (reclaimed messages first), apply it whole,
 * ack; when the batch fails, apply message by message so one poison message is isolated,
 * left pending for a retry, and dead-lettered after `maxDeliveries`.
 */
export const runConsumer = <E, R>(
  options: ConsumerOptions,
  apply: (changes: ReadonlyArray<Change>) => Effect.Effect<void, E, R>
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const streams = yield* RedisStreams
      yield* streams.ensureGroup(options.group, options.startId)
      const conn = yield* Effect.flatMap(Redis, (r) => r.dedicated)
      const tagged = Metric.tagged(changesMaterialized, "group", options.group)
      const deadTagged = Metric.tagged(deadLettered, "group", options.group)

      const handle = (messages: ReadonlyArray<StreamMessage>) =>
        Effect.gen(function* () {
          const good: Array<[StreamMessage, Change]> = []
          for (const m of messages) {
            const decoded = decodeChange(m.body)
            if (Either.isLeft(decoded)) {
              yield* streams.deadLetter(options.group, m, `undecodable change: ${String(decoded.left).slice(0, 500)}`)
              yield* Metric.increment(deadTagged)
            } else good.push([m, decoded.right])
          }
          if (good.length === 0) return
          const whole = yield* Effect.either(apply(good.map(([, c]) => c)))
          if (Either.isRight(whole)) {
            yield* streams.ack(options.group, good.map(([m]) => m.id))
            yield* Metric.incrementBy(tagged, good.length)
            return
          }
          yield* Effect.logWarning(`${options.group}: batch of ${good.length} failed, retrying one by one: ${String(whole.left)}`)
          const counts = yield* streams.deliveries(options.group, good.map(([m]) => m.id))
          for (const [m, c] of good) {
            const one = yield* Effect.either(apply([c]))
            if (Either.isRight(one)) {
              yield* streams.ack(options.group, [m.id])
              yield* Metric.increment(tagged)
            } else if ((counts.get(m.id) ?? 1) >= options.maxDeliveries) {
              yield* streams.deadLetter(options.group, m, String(one.left))
              yield* Metric.increment(deadTagged)
              yield* Effect.logError(`${options.group}: change ${c.change_id} dead-lettered: ${String(one.left)}`)
            }
          }
        })

      let sinceClaim = Number.POSITIVE_INFINITY
      const nextBatch = Effect.gen(function* () {
        // reclaim first, but not on every turn: XAUTOCLAIM scans the pending list
        if (sinceClaim >= Math.min(options.claimIdleMs, 5000)) {
          sinceClaim = 0
          const claimed = yield* streams.autoClaim(options.group, options.consumer, options.claimIdleMs, options.batchSize)
          if (claimed.length > 0) return claimed
        }
        const t0 = yield* Clock.currentTimeMillis
        const batch = yield* streams.read(conn, options.group, options.consumer, options.batchSize, options.blockMs)
        sinceClaim += (yield* Clock.currentTimeMillis) - t0
        return batch
      })
      // the next batch is read while this one is applied; batches are still applied in order
      let pending = yield* Effect.fork(nextBatch)
      while (true) {
        const batch = yield* Fiber.join(pending)
        pending = yield* Effect.fork(nextBatch)
        yield* handle(batch)
      }
    })
  ).pipe(
    // a Redis or Postgres outage pauses the stage; it resumes where its group left off
    Effect.tapErrorCause((cause) => Effect.logError(`${options.group} consumer failed; restarting`, cause)),
    Effect.retry(Schedule.exponential("200 millis").pipe(Schedule.union(Schedule.spaced("5 seconds"))))
  )
