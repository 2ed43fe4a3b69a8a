import { Duration, Effect, Either, Layer, Queue, Redacted, Schedule } from "effect"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import {
  DUPLICATE_NOTE,
  MaterializedStream,
  RedisStreams,
  type StreamMessage
} from "../../../shared/bus/RedisStreams.js"
import { type Change, decodeChange } from "../../../shared/domain/Change.js"
import { defaultConsumerOptions, type MessageReader, runConsumerOf } from "../ConsumerLoop.js"
import { fromNowOn } from "../joinGroup.js"
import { closeDueBatches } from "./closeBatches.js"
import {
  type Attempted,
  attemptOne,
  claimDue,
  type ClaimedDelivery,
  type DispatchSettings,
  recordAttempts
} from "./dispatch.js"
import { recordMatches } from "./recordMatches.js"

export const WEBHOOKS_GROUP = "webhooks"
/** How often an idle sender looks for due deliveries, and the batch closer for ended windows. */
const IDLE_POLL = Duration.millis(100)
const BATCH_POLL = Duration.millis(250)

export const dispatchSettings = Effect.map(AppConfig, (c): DispatchSettings => ({
  timeoutMs: c.webhookTimeoutMs,
  allowPrivateTargets: c.webhookAllowPrivateTargets,
  masterKey: Redacted.value(c.webhookSecretKey),
  // a claimed delivery may wait one attempt in the queue and take one more to send
  leaseMs: 2 * c.webhookTimeoutMs + 5000
}))

/** Attempts recorded per transaction, at most. */
const RECORD_BATCH = 500

/**
 * Senders: one claimer keeps a bounded queue filled with due deliveries; `concurrency` workers
 * send from it, so one slow receiver holds one worker, not the others; one recorder writes the
 * finished attempts in batches.
 */
export const runSenders = (s: DispatchSettings, concurrency: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const queue = yield* Queue.bounded<ClaimedDelivery>(concurrency)
      const done = yield* Queue.bounded<Attempted>(RECORD_BATCH * 2)
      const worker = Queue.take(queue).pipe(
        Effect.flatMap((d) => attemptOne(d, s)),
        Effect.flatMap((a) => Queue.offer(done, a)),
        // a worker never dies: the delivery's lease runs out and it goes again
        Effect.catchAllCause((cause) => Effect.logError("webhook attempt failed unexpectedly", cause)),
        Effect.forever
      )
      for (let i = 0; i < concurrency; i++) yield* Effect.forkScoped(worker)
      const recorder = Queue.takeBetween(done, 1, RECORD_BATCH).pipe(
        Effect.flatMap((batch) => recordAttempts([...batch])),
        // not recorded: the leases run out and the deliveries go again, with the same ids
        Effect.catchAllCause((cause) =>
          Effect.logError("recording webhook attempts failed; they will be retried when their leases expire", cause)
        ),
        Effect.forever
      )
      yield* Effect.forkScoped(recorder)
      const claimer = Effect.gen(function* () {
        const room = concurrency - (yield* Queue.size(queue))
        const claimed = room > 0 ? yield* claimDue(room, s.leaseMs) : []
        yield* Queue.offerAll(queue, claimed)
        if (claimed.length < room) yield* Effect.sleep(IDLE_POLL)
        else if (room <= 0) yield* Effect.sleep(Duration.millis(10))
      }).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logError("webhook claim failed", cause).pipe(Effect.zipRight(Effect.sleep("1 second")))
        ),
        Effect.forever
      )
      return yield* claimer
    })
  )

export const runBatchCloser = closeDueBatches.pipe(
  Effect.catchAllCause((cause) => Effect.logError("closing webhook batches failed", cause).pipe(Effect.as(0))),
  Effect.repeat(Schedule.spaced(BATCH_POLL))
)

/** A change as the materializer passed it on, with its link decision. */
interface MaterializedChange {
  readonly change: Change
  readonly duplicate: boolean
}

export const materializedMessages: MessageReader<MaterializedChange> = {
  what: "change",
  decode: (m: StreamMessage) =>
    Either.map(decodeChange(m.body), (change) => ({ change, duplicate: m.note === DUPLICATE_NOTE })),
  idOf: (c) => c.change.change_id
}

/** The group's apply step: matches recorded, a dedupe subscription skipping what the materializer found a duplicate. */
export const recordMaterialized = (items: ReadonlyArray<MaterializedChange>) =>
  recordMatches(
    items.map((i) => i.change),
    new Set(items.flatMap((i) => (i.duplicate && i.change.kind === "event" ? [i.change.event_id] : [])))
  )

/**
 * The `webhooks` stage (DESIGN.md): the consumer group reads what the materializer wrote (the
 * materialized stream: every event change once it is readable, with its link decision) and
 * records matches in Postgres before it acknowledges; the batch closer turns ended windows into
 * deliveries; the senders deliver and retry. Every piece works from Postgres state, so any
 * process may die and another carries on.
 */
export const WebhooksLive = (consumer: string) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const settings = yield* dispatchSettings
      // the group is first made at the end of the stream (a first deployment does not replay
      // history), and from the start when Redis lost it (what the new stream holds is all unseen)
      const options = {
        ...defaultConsumerOptions(WEBHOOKS_GROUP, consumer),
        stream: MaterializedStream,
        claimIdleMs: config.claimIdleMs,
        join: fromNowOn
      }
      // a group of this name on the change stream would hold its trimming back for ever: the stage reads the
      // materialized stream
      yield* Effect.flatMap(RedisStreams, (s) => s.dropGroup(WEBHOOKS_GROUP)).pipe(
        Effect.catchAll((e) => Effect.logWarning(`webhooks: could not drop a group on the change stream: ${e.message}`))
      )
      yield* Effect.forkScoped(runConsumerOf(options, materializedMessages, recordMaterialized))
      yield* Effect.forkScoped(runBatchCloser)
      yield* Effect.forkScoped(runSenders(settings, config.webhookConcurrency))
    })
  )
