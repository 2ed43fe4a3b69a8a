import { Schema } from "effect"
import { DELIVERY_STATUSES } from "../../shared/webhooks/subscriptions.js"
import { Count, DateTime, Int, NullableDateTime, NullableText, Texts } from "./common.js"

const fields = {
  id: Schema.String.annotations({ jsonSchema: { type: "string", pattern: "^whk_" } }),
  name: Schema.String,
  url: Schema.String,
  jurisdiction: Texts,
  type: Texts,
  sub_type: Texts,
  severity: Texts,
  cause: Texts,
  batch_window_seconds: Schema.NullOr(
    Schema.Number.annotations({ jsonSchema: { type: "integer", minimum: 1, maximum: 300 } })
  ),
  dedupe: Schema.Boolean.annotations({
    description:
      "When true, a report linked to one already announced (related[] on /events) fires no second event.created"
  }),
  enabled: Schema.Boolean,
  disabled_reason: Schema.NullOr(Schema.Literal("owner", "failures", "gone")),
  disabled_at: NullableDateTime,
  consecutive_failures: Count,
  secret_hint: Schema.String,
  created_at: DateTime,
  updated_at: DateTime
}
const Secret = Schema.String.annotations({
  jsonSchema: { type: "string", pattern: "^whsec_" },
  description: "Shown only here"
})

export const WebhookSubscription = Schema.Struct(fields).annotations({ identifier: "WebhookSubscription" })
export const WebhookSubscriptionCreated = Schema.Struct({ ...fields, secret: Secret }).annotations({
  identifier: "WebhookSubscriptionCreated"
})
export const WebhookSubscriptionList = Schema.Struct({ data: Schema.Array(WebhookSubscription) }).annotations({
  identifier: "WebhookSubscriptionList"
})
export const WebhookSecret = Schema.Struct({ id: Schema.String, secret: Secret }).annotations({
  identifier: "WebhookSecret"
})
export const WebhookTestResult = Schema.Struct({
  delivery_id: Schema.String,
  sent_at: DateTime,
  url: Schema.String,
  request_headers: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({
    description: "As sent, signature headers included"
  }),
  request_body: Schema.String,
  delivered: Schema.Boolean,
  status_code: Schema.NullOr(Int),
  response_body: Schema.NullOr(Schema.String).annotations({ description: "The receiver's answer, its first 2 KB" }),
  latency_ms: Count,
  error: NullableText
}).annotations({ identifier: "WebhookTestResult" })
export const WebhookLastTest = Schema.Struct({ last_test: Schema.NullOr(WebhookTestResult) }).annotations({
  identifier: "WebhookLastTest"
})

export const WebhookDelivery = Schema.Struct({
  id: Schema.String,
  event: Schema.Literal(
    "event.created",
    "event.severity_change",
    "event.status_change",
    "event.archived",
    "route.warning",
    "batch"
  ),
  status: Schema.Literal(...DELIVERY_STATUSES),
  attempts: Count,
  change_ids: Texts,
  created_at: DateTime,
  next_attempt_at: NullableDateTime,
  finished_at: NullableDateTime,
  last_status_code: Schema.NullOr(Int),
  last_error: NullableText,
  history: Schema.Array(
    Schema.Struct({
      attempt: Count,
      started_at: DateTime,
      status_code: Schema.NullOr(Int),
      error: NullableText,
      latency_ms: Count
    })
  )
}).annotations({ identifier: "WebhookDelivery" })

export const WebhookDeliveryPage = Schema.Struct({
  data: Schema.Array(WebhookDelivery),
  total: Count,
  limit: Count,
  offset: Count,
  has_more: Schema.Boolean
}).annotations({ identifier: "WebhookDeliveryPage" })

export const WebhookReplay = Schema.Struct({ id: Schema.String, status: Schema.Literal("pending") }).annotations({
  identifier: "WebhookReplay"
})
