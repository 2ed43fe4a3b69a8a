import { Effect } from "effect"
import type { Change, EventChange, FeatureChange, FuelPriceChange } from "../../../shared/domain/Change.js"
import { applyEventChanges } from "./applyEventChanges.js"
import { applyFeatureChanges } from "./applyFeatureChanges.js"
import { applyFuelPriceChanges } from "./applyFuelPriceChanges.js"

/** One batch from the stream, split by kind; each kind is written in its own transaction. */
export const applyChanges = (changes: ReadonlyArray<Change>) =>
  Effect.gen(function* () {
    const events: Array<EventChange> = []
    const features: Array<FeatureChange> = []
    const prices: Array<FuelPriceChange> = []
    for (const c of changes) {
      if (c.kind === "event") events.push(c)
      else if (c.kind === "feature") features.push(c)
      else prices.push(c)
    }
    if (events.length > 0) yield* applyEventChanges(events)
    if (features.length > 0) yield* applyFeatureChanges(features)
    if (prices.length > 0) yield* applyFuelPriceChanges(prices)
  })
