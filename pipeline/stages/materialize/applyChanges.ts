import { Effect } from "effect"
import { changedTags, everyTag, publishInvalidation } from "../../../shared/cache/invalidation.js"
import type { Change, EventChange, FeatureChange, FuelPriceChange } from "../../../shared/domain/Change.js"
import { type EventPlan, planEventChanges, writeEventPlan } from "./applyEventChanges.js"
import { applyFeatureChanges } from "./applyFeatureChanges.js"
import { applyFuelPriceChanges } from "./applyFuelPriceChanges.js"
import { type Announced, publishResolved } from "./publishResolved.js"
import type { StreamMessage } from "../../../shared/bus/RedisStreams.js"

export interface ChangesPlan {
  readonly events: EventPlan | null
  readonly features: ReadonlyArray<FeatureChange>
  readonly prices: ReadonlyArray<FuelPriceChange>
  /** what the API's response cache must drop once the batch is written */
  readonly tags: ReadonlySet<string>
  /** the event changes as read, passed on to the stages after this one once written */
  readonly announced: ReadonlyArray<Announced>
}

/**
 * One batch from the stream, split by kind, the event rows worked out ahead of their transaction.
 * `messages` are the changes as read (the same order), whose bodies are passed on as they came.
 */
export const planChanges = (changes: ReadonlyArray<Change>, messages?: ReadonlyArray<StreamMessage>): ChangesPlan => {
  const events: Array<EventChange> = []
  const features: Array<FeatureChange> = []
  const prices: Array<FuelPriceChange> = []
  const announced: Array<Announced> = []
  changes.forEach((c, i) => {
    if (c.kind === "event") {
      events.push(c)
      const m = messages?.[i]
      announced.push({
        body: m?.body ?? JSON.stringify(c),
        traceparent: m?.traceparent,
        eventId: c.event_id,
        created: c.fields.some((f) => f.change_type === "created")
      })
    } else if (c.kind === "feature") features.push(c)
    else prices.push(c)
  })
  return {
    events: events.length > 0 ? planEventChanges(events) : null,
    features,
    prices,
    tags: changedTags(changes),
    announced
  }
}

/**
 * Each kind is written in its own transaction; then the API workers hear what moved, and the
 * stages after this one get what it resolved (publishResolved).
 */
export const writeChanges = Effect.fnUntraced(function* (plan: ChangesPlan) {
  const linked = plan.events ? yield* writeEventPlan(plan.events) : false
  const featureCells = plan.features.length > 0 ? yield* applyFeatureChanges(plan.features) : []
  if (plan.prices.length > 0) yield* applyFuelPriceChanges(plan.prices)
  yield* publishInvalidation(linked ? [...plan.tags, everyTag("event")] : plan.tags)
  yield* publishResolved({
    announced: plan.announced,
    recheckCells: [...(plan.events?.rows.map((r) => r.h3_r7) ?? []), ...featureCells]
  })
})

export const applyChanges = (changes: ReadonlyArray<Change>) => Effect.suspend(() => writeChanges(planChanges(changes)))
