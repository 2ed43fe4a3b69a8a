import { Duration, Effect, Layer, Queue, Redacted, Schedule } from "effect"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { defaultConsumerOptions, runConsumer } from "../ConsumerLoop.js"
import { closeDueBatches } from "./closeBatches.js"
import { claimDue, type ClaimedDelivery, deliverOne, type DispatchSettings } from "./dispatch.js"
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

/**
 * Senders: one claimer keeps a bounded queue filled with due deliveries; `concurrency` workers
 * send from it, so one slow receiver holds one worker, not the others.
 */
export const runSenders = (s: DispatchSettings, concurrency: number) =>
  Effect.scoped(Effect.gen(function* () {
    const queue = yield* Queue.bounded<ClaimedDelivery>(concurrency)
    const worker = Queue.take(queue).pipe(
      Effect.flatMap((d) => deliverOne(d, s)),
      Effect.catchAllCause((cause) => Effect.logError("webhook delivery failed to record; its lease will expire and it is retried", cause)),
      Effect.forever
    )
    for (let i = 0; i < concurrency; i++) yield* Effect.forkScoped(worker)
    const claimer = Effect.gen(function* () {
      const room = concurrency - (yield* Queue.size(queue))
      const claimed = room > 0 ? yield* claimDue(room, s.leaseMs) : []
      yield* Queue.offerAll(queue, claimed)
      if (claimed.length < room) yield* Effect.sleep(IDLE_POLL)
      else if (room <= 0) yield* Effect.sleep(Duration.millis(10))
    }).pipe(
      Effect.catchAllCause((cause) => Effect.logError("webhook claim failed", cause).pipe(Effect.zipRight(Effect.sleep("1 second")))),
      Effect.forever
    )
    return yield* claimer
  }))

export const runBatchCloser = closeDueBatches.pipe(
  Effect.catchAllCause((cause) => Effect.logError("closing webhook batches failed", cause).pipe(Effect.as(0))),
  Effect.repeat(Schedule.spaced(BATCH_POLL))
)

/**
 * The `webhooks` stage (DESIGN.md): the consumer group records matches in Postgres before it
 * acknowledges, the batch closer turns ended windows into deliveries, the senders deliver and
 * retry. Every piece works from Postgres state, so any process may die and another carries on.
 */
export const WebhooksLive = (consumer: string) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const settings = yield* dispatchSettings
      // a new group starts at the end of the stream: a first deployment does not replay history
      const options = { ...defaultConsumerOptions(WEBHOOKS_GROUP, consumer), claimIdleMs: config.claimIdleMs, startId: "$" }
      yield* Effect.forkScoped(runConsumer(options, recordMatches))
      yield* Effect.forkScoped(runBatchCloser)
      yield* Effect.forkScoped(runSenders(settings, config.webhookConcurrency))
    })
  )
