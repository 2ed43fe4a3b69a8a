import { Clock, Effect, Either, Fiber, FiberSet, Metric, Schedule } from "effect"
import { Redis } from "../../shared/db/Redis.js"
import type { Change } from "../../shared/domain/Change.js"
import { decodeChange } from "../../shared/domain/Change.js"
import { RedisStreams, type StreamMessage, type StreamTag } from "../../shared/bus/RedisStreams.js"
import { changesMaterialized, deadLettered } from "./metrics.js"
import { drainParticipant, isDraining } from "../../shared/lifecycle/Drain.js"
import { fromTheStart, type JoinGroup } from "./joinGroup.js"
import { batchSpan } from "../../shared/observability/Tracing.js"

export interface ConsumerOptions {
  /** the stream the group reads (default: the change stream) */
  readonly stream?: StreamTag
  readonly group: string
  readonly consumer: string
  readonly batchSize: number
  readonly blockMs: number
  /** a pending message idle this long belongs to a dead consumer and is reclaimed */
  readonly claimIdleMs: number
  /** deliveries after which a failing message goes to the dead-letter stream */
  readonly maxDeliveries: number
  /** how the group joins the stream when the loop starts (default `fromTheStart`; see joinGroup.ts) */
  readonly join?: JoinGroup
  /**
   * Batches written at once (default 1: one after another, in stream order). Only for a stage
   * whose writes are idempotent and order-independent, as the materializer's are.
   */
  readonly inFlight?: number
}

export const defaultConsumerOptions = (group: string, consumer: string): ConsumerOptions => ({
  group,
  consumer,
  batchSize: 1000,
  blockMs: 1000,
  claimIdleMs: 30_000,
  maxDeliveries: 5
})

/**
 * A stage in two steps: `prepare` is plain computation on a batch (no I/O), done while the
 * previous batch is being written; `write` applies what it prepared. `prepare` also gets the
 * batch's messages as read (their bodies, for a stage that passes them on).
 */
export interface Stage<P, E, R, T = Change> {
  readonly prepare: (items: ReadonlyArray<T>, messages: ReadonlyArray<StreamMessage>) => P
  readonly write: (prepared: P) => Effect.Effect<void, E, R>
}

/** How a stream's messages become a stage's items, and the id each is logged and traced by. */
export interface MessageReader<T> {
  /** what a message holds, for a dead letter's cause ("undecodable change") */
  readonly what: string
  readonly decode: (m: StreamMessage) => Either.Either<T, unknown>
  readonly idOf: (item: T, m: StreamMessage) => string
}

/** The change stream's messages: a change each. */
export const changeMessages: MessageReader<Change> = {
  what: "change",
  decode: (m) => decodeChange(m.body),
  idOf: (c) => c.change_id
}

/**
 * A batch as read: the messages that decoded (with their change ids), those that did not, and
 * what was prepared from the good ones. The decoded changes themselves are not kept: once
 * prepared they die young instead of living through the batch's write (docs/BENCHMARKS.md,
 * bench:scale); the rare retry one by one decodes its message again.
 */
interface ReadBatch<P> {
  readonly good: ReadonlyArray<readonly [StreamMessage, string]>
  readonly bad: ReadonlyArray<readonly [StreamMessage, string]>
  /** dead letters replayed for another group: acknowledged unread */
  readonly others: ReadonlyArray<StreamMessage>
  readonly prepared: Either.Either<P, unknown>
}

/**
 * The shape every stage shares: read a batch (reclaimed messages first), apply it whole,
 * ack; when the batch fails, apply message by message so one poison message is isolated,
 * left pending for a retry, and dead-lettered after `maxDeliveries`.
 */
export const runConsumer = <E, R>(
  options: ConsumerOptions,
  apply: (changes: ReadonlyArray<Change>) => Effect.Effect<void, E, R>
) => runStagedConsumer(options, { prepare: (changes) => changes, write: apply })

/** `runConsumer` over another stream's messages, read by `reader`. */
export const runConsumerOf = <T, E, R>(
  options: ConsumerOptions,
  reader: MessageReader<T>,
  apply: (items: ReadonlyArray<T>) => Effect.Effect<void, E, R>
) => runStagedConsumer(options, { prepare: (items) => items, write: apply }, reader)

/**
 * `runConsumer` for a stage with a prepare step: the next batch is read, decoded and prepared
 * while this one is written; batches are still written one after another, in stream order.
 */
export const runStagedConsumer = <P, E, R, T = Change>(
  options: ConsumerOptions,
  stage: Stage<P, E, R, T>,
  reader: MessageReader<T> = changeMessages as unknown as MessageReader<T>
) =>
  Effect.scoped(
    Effect.gen(function* () {
      // a stop asked for while this loop was restarting: nothing more to take
      if (yield* isDraining) return
      const streams = yield* options.stream ?? RedisStreams
      const participant = yield* drainParticipant(`${options.group} consumer ${options.consumer}`)
      yield* (options.join ?? fromTheStart)(streams, options.group)
      const conn = yield* Effect.flatMap(Redis, (r) => r.dedicated)
      const tagged = Metric.tagged(changesMaterialized, "group", options.group)
      const deadTagged = Metric.tagged(deadLettered, "group", options.group)
      const prepare = (items: ReadonlyArray<T>, messages: ReadonlyArray<StreamMessage>) =>
        Either.try(() => stage.prepare(items, messages))
      const applyOne = (item: T, m: StreamMessage) =>
        Either.match(prepare([item], [m]), { onLeft: (e) => Effect.fail(e), onRight: (p) => stage.write(p) })

      const decodeBatch = (messages: ReadonlyArray<StreamMessage>): ReadBatch<P> => {
        const good: Array<readonly [StreamMessage, string]> = []
        const items: Array<T> = []
        const bad: Array<readonly [StreamMessage, string]> = []
        const others: Array<StreamMessage> = []
        for (const m of messages) {
          if (m.onlyGroup !== undefined && m.onlyGroup !== options.group) {
            others.push(m)
            continue
          }
          const decoded = reader.decode(m)
          if (Either.isLeft(decoded)) bad.push([m, `undecodable ${reader.what}: ${String(decoded.left).slice(0, 500)}`])
          else {
            good.push([m, reader.idOf(decoded.right, m)])
            items.push(decoded.right)
          }
        }
        return {
          good,
          bad,
          others,
          prepared:
            items.length === 0
              ? Either.left("empty")
              : prepare(
                  items,
                  good.map(([m]) => m)
                )
        }
      }

      // made once per loop start, not per batch: a generator function made per call keeps the batch
      // it captured past young collections (docs/DECISIONS.md "A request's data dies young")
      const handle = Effect.fnUntraced(function* ({ good, bad, others, prepared }: ReadBatch<P>) {
        if (others.length > 0)
          yield* streams.ack(
            options.group,
            others.map((m) => m.id)
          )
        for (const [m, reason] of bad) {
          yield* streams.deadLetter(options.group, m, reason)
          yield* Metric.increment(deadTagged)
        }
        if (good.length === 0) return
        const carried = good.map(([m, changeId]) => ({ changeId, traceparent: m.traceparent }))
        const whole = Either.isRight(prepared)
          ? yield* Effect.either(
              stage
                .write(prepared.right)
                .pipe(
                  Effect.zipRight(
                    Effect.logInfo(`${options.group}: wrote ${good.length} changes`).pipe(
                      Effect.annotateLogs({ first_change: good[0][1], last_change: good[good.length - 1][1] })
                    )
                  ),
                  batchSpan(`${options.group} batch`, carried)
                )
            )
          : Either.left(prepared.left)
        if (Either.isRight(whole)) {
          yield* streams.ack(
            options.group,
            good.map(([m]) => m.id)
          )
          yield* Metric.incrementBy(tagged, good.length)
          return
        }
        yield* Effect.logWarning(
          `${options.group}: batch of ${good.length} failed, retrying one by one: ${String(whole.left)}`
        )
        const counts = yield* streams.deliveries(
          options.group,
          good.map(([m]) => m.id)
        )
        for (const [m, changeId] of good) {
          // the same body decoded a moment ago, so it decodes again; were it not to, it counts as this change's failure
          const decoded = reader.decode(m)
          const one = Either.isLeft(decoded)
            ? Either.left(decoded.left)
            : yield* Effect.either(
                applyOne(decoded.right, m).pipe(
                  batchSpan(`${options.group} change`, [{ changeId, traceparent: m.traceparent }])
                )
              )
          if (Either.isRight(one)) {
            yield* streams.ack(options.group, [m.id])
            yield* Metric.increment(tagged)
          } else if ((counts.get(m.id) ?? 1) >= options.maxDeliveries) {
            yield* streams.deadLetter(options.group, m, String(one.left))
            yield* Metric.increment(deadTagged)
            yield* Effect.logError(`${options.group}: change ${changeId} dead-lettered: ${String(one.left)}`)
          }
        }
      })

      let sinceClaim = Number.POSITIVE_INFINITY
      const nextBatch = Effect.gen(function* () {
        // reclaim first, but not on every turn: XAUTOCLAIM scans the pending list
        if (sinceClaim >= Math.min(options.claimIdleMs, 5000)) {
          sinceClaim = 0
          const claimed = yield* streams.autoClaim(
            options.group,
            options.consumer,
            options.claimIdleMs,
            options.batchSize
          )
          if (claimed.length > 0) return decodeBatch(claimed)
        }
        const t0 = yield* Clock.currentTimeMillis
        const batch = yield* streams.read(conn, options.group, options.consumer, options.batchSize, options.blockMs)
        sinceClaim += (yield* Clock.currentTimeMillis) - t0
        return decodeBatch(batch)
      })
      // on a stop: the batch already read is written too, then the name leaves the group when it
      // holds nothing (a message that failed stays pending, for another consumer to reclaim)
      const finish = Effect.gen(function* () {
        const held = yield* streams.leave(options.group, options.consumer)
        if (held > 0)
          yield* Effect.logWarning(
            `${options.group}: stopping with ${held} failed messages pending; another consumer reclaims them after ${options.claimIdleMs} ms`
          )
        else yield* Effect.logInfo(`${options.group}: drained; consumer ${options.consumer} left the group`)
        yield* participant.done
      })

      // the next batch is read and prepared while this one is written
      const inFlight = Math.max(1, options.inFlight ?? 1)
      let pending = yield* Effect.fork(nextBatch)
      if (inFlight === 1) {
        while (true) {
          const batch = yield* Fiber.join(pending)
          if (yield* isDraining) {
            yield* handle(batch)
            return yield* finish
          }
          pending = yield* Effect.fork(nextBatch)
          yield* handle(batch)
        }
      }
      // up to `inFlight` batches written at once, each in its own transaction; a writer's failure
      // (Redis or Postgres gone) stops the loop like a failure of the single writer would
      const slots = yield* Effect.makeSemaphore(inFlight)
      const writers = yield* FiberSet.make<void, unknown>()
      const loop = Effect.gen(function* () {
        while (true) {
          const batch = yield* Fiber.join(pending)
          const draining = yield* isDraining
          if (!draining) pending = yield* Effect.fork(nextBatch)
          yield* slots.take(1)
          yield* FiberSet.run(writers, handle(batch).pipe(Effect.ensuring(slots.release(1))))
          if (draining) {
            yield* slots.take(inFlight)
            return yield* finish
          }
        }
      })
      return yield* Effect.raceFirst(loop, Effect.zipRight(FiberSet.join(writers), Effect.never))
    })
  ).pipe(
    // a Redis or Postgres outage pauses the stage; it resumes where its group left off
    Effect.tapErrorCause((cause) => Effect.logError(`${options.group} consumer failed; restarting`, cause)),
    Effect.retry(Schedule.exponential("200 millis").pipe(Schedule.union(Schedule.spaced("5 seconds"))))
  )
