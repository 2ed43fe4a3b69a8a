import { Effect } from "effect"
import type { Change, EventChange, FeatureChange, FuelPriceChange } from "../../../shared/domain/Change.js"
import { type EventPlan, planEventChanges, writeEventPlan } from "./applyEventChanges.js"
import { applyFeatureChanges } from "./applyFeatureChanges.js"
import { applyFuelPriceChanges } from "./applyFuelPriceChanges.js"

export interface ChangesPlan {
  readonly events: EventPlan | null
  readonly features: ReadonlyArray<FeatureChange>
  readonly prices: ReadonlyArray<FuelPriceChange>
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
  return { events: events.length > 0 ? planEventChanges(events) : null, features, prices }
}

/** Each kind is written in its own transaction. */
export const writeChanges = (plan: ChangesPlan) =>
  Effect.gen(function* () {
    if (plan.events) yield* writeEventPlan(plan.events)
    if (plan.features.length > 0) yield* applyFeatureChanges(plan.features)
    if (plan.prices.length > 0) yield* applyFuelPriceChanges(plan.prices)
  })

export const applyChanges = (changes: ReadonlyArray<Change>) => Effect.suspend(() => writeChanges(planChanges(changes)))
