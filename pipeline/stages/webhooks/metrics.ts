import { Metric } from "effect"

export const webhookDeliveries = Metric.counter("webhook_deliveries_total", {
  description: "Webhook delivery attempts by outcome (succeeded, retry, dead, gone)"
})
