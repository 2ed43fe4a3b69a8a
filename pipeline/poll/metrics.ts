import { Metric } from "effect"

/** Pipeline metrics named as the style guide fixes them; exported at /metrics. */
export const sourcePolls = Metric.counter("pipeline_source_polls_total", { description: "Polls by source and outcome" })
export const recordsRejected = Metric.counter("pipeline_records_rejected_total", { description: "Upstream records quarantined" })
export const changesEmitted = Metric.counter("pipeline_changes_emitted_total", { description: "Changes XADDed to the stream" })
export const changesMaterialized = Metric.counter("stage_changes_applied_total", { description: "Changes applied by a stage" })
export const deadLettered = Metric.counter("stage_dead_lettered_total", { description: "Messages moved to the dead-letter stream" })
export const webhookDeliveries = Metric.counter("webhook_deliveries_total", { description: "Webhook delivery attempts by outcome (succeeded, retry, dead, gone)" })
