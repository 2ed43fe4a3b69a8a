import { Metric } from "effect"

/** Pipeline metrics named as the style guide fixes them; exported at /metrics. */
export const sourcePolls = Metric.counter("pipeline_source_polls_total", { description: "Polls by source and outcome" })
export const recordsRejected = Metric.counter("pipeline_records_rejected_total", {
  description: "Upstream records quarantined"
})
export const changesEmitted = Metric.counter("pipeline_changes_emitted_total", {
  description: "Changes XADDed to the stream"
})
