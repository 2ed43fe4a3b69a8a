import { Effect } from "effect"
import { changedTags, everyTag, publishInvalidation } from "../../../shared/cache/invalidation.js"
import type { Change, EventChange, FeatureChange, FuelPriceChange } from "../../../shared/domain/Change.js"
import { type EventPlan, planEventChanges, writeEventPlan } from "./applyEventChanges.js"
import { applyFeatureChanges } from "./applyFeatureChanges.js"
import { applyFuelPriceChanges } from "./applyFuelPriceChanges.js"

export interface ChangesPlan {
  readonly events: EventPlan | null
  readonly features: ReadonlyArray<FeatureChange>
  readonly prices: ReadonlyArray<FuelPriceChange>
  /** what the API's response cache must drop once the batch is written */
  readonly tags: ReadonlySet<string>
}

/** One batch from the stream, split by kind, the event rows worked out ahead of their transaction. */
export const planChanges = (changes: ReadonlyArray<Change>): ChangesPlan => {
  const events: Array<EventChange> = []
  const features: Array<FeatureChange> = []
  const prices: Array<FuelPriceChange> = []
  for (const c of changes) {
    if (c.kind === "event") events.push(c)
    else if (c.kind === "feature") features.push(c)
    else prices.push(c)
  }
  return { events: events.length > 0 ? planEventChanges(events) : null, features, prices, tags: changedTags(changes) }
}

/** Each kind is written in its own transaction; then the API workers hear what moved. */
export const writeChanges = Effect.fnUntraced(function* (plan: ChangesPlan) {
  const linked = plan.events ? yield* writeEventPlan(plan.events) : false
  if (plan.features.length > 0) yield* applyFeatureChanges(plan.features)
  if (plan.prices.length > 0) yield* applyFuelPriceChanges(plan.prices)
  yield* publishInvalidation(linked ? [...plan.tags, everyTag("event")] : plan.tags)
})

export const applyChanges = (changes: ReadonlyArray<Change>) => Effect.suspend(() => writeChanges(planChanges(changes)))
