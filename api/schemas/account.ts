import { Schema } from "effect"
import { Count, DateTime, Int, NullableDateTime, NullableText, Texts } from "./common.js"

const NullableInt = Schema.NullOr(Int)

export const Plan = Schema.Struct({
  id: Int,
  code: Schema.Literal("free", "starter", "pro", "enterprise"),
  name: Schema.String,
  description: Schema.String,
  is_active: Schema.Boolean,
  allow_analytics: Schema.Boolean,
  allow_geojson: Schema.Boolean,
  allow_truck_data: Schema.Boolean,
  allow_webhooks: Schema.Boolean,
  data_delay_sec: Count.annotations({ description: "0 = real-time" }),
  data_unit_price: Schema.Number,
  features: Schema.Array(
    Schema.Struct({ key: Schema.String.annotations({ description: "i18n key" }), label: Schema.String })
  ),
  is_contact_sales: Schema.Boolean,
  rate_limit_rpm: Count,
  daily_request_limit: NullableInt,
  max_limit: Count,
  max_batch_size: Count,
  max_jurisdictions: NullableInt,
  requires_jurisdiction: Schema.Boolean,
  event_history_days: NullableInt,
  allow_archived_events: Schema.Boolean,
  allow_inactive_features: Schema.Boolean,
  saved_route_slots: Count,
  monthly_routing_quota: Count,
  daily_routing_cap: NullableInt.annotations({
    description: "Routing calls per UTC day on a trial plan; null = no daily cap"
  }),
  trial_days: NullableInt,
  monthly_price: Schema.NullOr(Schema.Number).annotations({
    description:
      "What the plan costs a month, in `currency`; 0 for the Free trial; null where sales prices it (Enterprise)"
  }),
  currency: Schema.String.annotations({ description: "ISO 4217 code of monthly_price, e.g. USD" }),
  max_webhooks: Count
}).annotations({ identifier: "Plan" })

export const Account = Schema.Struct({
  customer: Schema.Struct({
    id: Int,
    name: Schema.String,
    email: Schema.String,
    company: NullableText,
    email_verified: Schema.Boolean,
    is_active: Schema.Boolean,
    plan_id: Int,
    created_at: DateTime,
    trial_ends_at: NullableDateTime,
    subscription_ends_at: NullableDateTime,
    subscription_status: Schema.Literal("none", "active", "canceled", "past_due", "paused")
  }),
  key: Schema.Struct({
    id: Int,
    name: Schema.String,
    key_prefix: Schema.String,
    owner_email: Schema.String,
    is_active: Schema.Boolean,
    allowed_origins: Texts,
    rate_limit_rpm: Count.annotations({ description: "In force: the key's own, else the plan's" }),
    created_at: DateTime,
    expires_at: NullableDateTime,
    last_used_at: NullableDateTime
  }),
  plan: Plan
}).annotations({ identifier: "Account" })
