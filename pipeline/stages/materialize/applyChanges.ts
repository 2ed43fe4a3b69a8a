import { Effect } from "effect"
import type { Change, EventChange, FeatureChange } from "../../../shared/domain/Change.js"
import { applyEventChanges } from "./applyEventChanges.js"
import { applyFeatureChanges } from "./applyFeatureChanges.js"

/** One batch from the stream, split by kind; each kind is written in its own transaction. */
export const applyChanges = (changes: ReadonlyArray<Change>) =>
  Effect.gen(function* () {
    const events: Array<EventChange> = []
    const features: Array<FeatureChange> = []
    for (const c of changes) (c.kind === "event" ? events : features).push(c as never)
    if (events.length > 0) yield* applyEventChanges(events)
    if (features.length > 0) yield* applyFeatureChanges(features)
  })
