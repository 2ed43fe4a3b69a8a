import { Metric } from "effect"

/** Counters every consuming stage shares (the consumer loop records them, labelled by stage). */
export const changesMaterialized = Metric.counter("stage_changes_applied_total", {
  description: "Changes applied by a stage"
})
export const deadLettered = Metric.counter("stage_dead_lettered_total", {
  description: "Messages moved to the dead-letter stream"
})
