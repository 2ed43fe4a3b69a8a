/**
 * JSON Schema 2020-12 (OpenAPI 3.1) of every response body the data endpoints send. Objects we
 * own are closed (additionalProperties false) so the contract test notices an undocumented field;
 * upstream-shaped bags (`properties`, `metadata`) stay open.
 */
type S = Record<string, unknown>

const ref = (name: string): S => ({ $ref: `#/components/schemas/${name}` })
const nullable = (type: string, extra: S = {}): S => ({ type: [type, "null"], ...extra })
const dateTime: S = { type: "string", format: "date-time" }
const nullableDateTime: S = { type: ["string", "null"], format: "date-time" }
const arrayOf = (items: S): S => ({ type: "array", items })
const closed = (properties: Record<string, S>, required: ReadonlyArray<string> = Object.keys(properties)): S => ({
  type: "object", properties, required, additionalProperties: false
})

const EVENT_TYPES = ["incident", "construction", "closure", "weather", "special_event", "advisory", "restriction"]
const SEVERITIES = ["minor", "moderate", "major", "critical"]

const eventListFields: Record<string, S> = {
  id: { type: "string", description: "Stable id: ev_ + 22 characters" },
  source_id: { type: "string" },
  source: { type: "string" },
  jurisdiction: { type: "string" },
  type: { type: "string", enum: EVENT_TYPES },
  sub_type: nullable("string"),
  cause: nullable("string"),
  severity: { type: "string", enum: SEVERITIES },
  status: { type: "string" },
  title: { type: "string" },
  description: { type: "string" },
  affected_roads: arrayOf({ type: "string" }),
  direction: nullable("string"),
  lanes_affected: nullable("string"),
  start_time: nullableDateTime,
  end_time: nullableDateTime,
  estimated_end_time: nullableDateTime,
  latitude: { type: "number", minimum: -90, maximum: 90 },
  longitude: { type: "number", minimum: -180, maximum: 180 },
  road_class: nullable("string"),
  last_updated: dateTime,
  created_at: dateTime
}

const point: S = closed({
  type: { const: "Point" },
  coordinates: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 3, description: "[longitude, latitude]" }
})

const geometry: S = {
  type: "object",
  required: ["type"],
  properties: { type: { enum: ["Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"] } },
  description: "RFC 7946 geometry, coordinates [longitude, latitude]"
}

const featureFields: Record<string, S> = {
  id: { type: "string", description: "Stable id: ft_ + 22 characters" },
  source: { type: "string" },
  source_id: { type: "string" },
  jurisdiction: { type: "string" },
  feature_type: { type: "string" },
  name: { type: "string" },
  description: { type: "string" },
  latitude: { type: "number" },
  longitude: { type: "number" },
  geometry: { oneOf: [{ type: "null" }, geometry] },
  road_name: nullable("string"),
  direction: nullable("string"),
  is_active: { type: "boolean" },
  start_time: nullableDateTime,
  end_time: nullableDateTime,
  estimated_start_time: nullableDateTime,
  estimated_end_time: nullableDateTime,
  properties: { type: "object", description: "Type-specific keys (SPEC §2.2); a key the source does not publish is absent, never zero" },
  last_updated: dateTime,
  has_details: { type: "boolean" }
}

const paged = (item: S, extra: Record<string, S> = {}): S => closed({
  data: arrayOf(item),
  total: { type: "integer", minimum: 0 },
  limit: { type: "integer", minimum: 0 },
  offset: { type: "integer", minimum: 0 },
  has_more: { type: "boolean" },
  next_cursor: { type: "string", description: "Present only while has_more is true; pass it as `cursor` for the next page" },
  attribution: arrayOf(ref("SourceCredit")),
  warnings: arrayOf(ref("APIWarning")),
  ...extra
}, ["data", "total", "limit", "offset", "has_more"])

const featureCollection = (properties: S): S => ({
  type: "object",
  required: ["type", "features", "total", "limit", "offset", "has_more"],
  additionalProperties: false,
  properties: {
    type: { const: "FeatureCollection" },
    features: arrayOf(closed({ type: { const: "Feature" }, id: { type: "string" }, geometry, properties })),
    total: { type: "integer" }, limit: { type: "integer" }, offset: { type: "integer" }, has_more: { type: "boolean" },
    next_cursor: { type: "string" },
    attribution: arrayOf(ref("SourceCredit"))
  }
})

const historyEntry: Record<string, S> = {
  id: { type: "integer" },
  event_id: { type: "string" },
  change_type: { type: "string", enum: ["created", "severity_change", "status_change", "lanes_change", "end_time_change", "archived"] },
  old_value: nullable("string"),
  new_value: nullable("string"),
  changed_at: dateTime
}

const detailAnswer = { data: ref("Feature"), detail_available: { type: "boolean" }, cache: { enum: ["hit", "miss", "none", "poll", "error"] } }

const codesIn: S = { oneOf: [{ type: "array", items: { type: "string" }, maxItems: 100 }, { type: "string", description: "comma list" }] }
const webhookFields: Record<string, S> = {
  id: { type: "string", pattern: "^whk_" }, name: { type: "string" }, url: { type: "string" },
  jurisdiction: arrayOf({ type: "string" }), type: arrayOf({ type: "string" }), sub_type: arrayOf({ type: "string" }),
  severity: arrayOf({ type: "string" }), cause: arrayOf({ type: "string" }),
  batch_window_seconds: { type: ["integer", "null"], minimum: 1, maximum: 300 },
  enabled: { type: "boolean" }, disabled_reason: { enum: ["owner", "failures", "gone", null] }, disabled_at: nullableDateTime,
  consecutive_failures: { type: "integer" }, secret_hint: { type: "string" }, created_at: dateTime, updated_at: dateTime
}

export const schemas: Record<string, S> = {
  Error: closed({
    error: { type: "string", description: "Human-readable and stable" },
    code: { enum: ["plan_jurisdiction", "plan_batch_size", "plan_event_time_range", "plan_event_status", "plan_archived_event", "plan_inactive_features", "plan_geojson", "plan_analytics", "plan_truck", "plan_webhooks", "trial_expired", "subscription_expired"], description: "Plan-gate 403s only; branch on this, not on error" },
    docs_url: { type: "string", description: "Relative same-host link" },
    plan: { type: "string" },
    plan_name: { type: "string" },
    upgrade_url: { type: "string", description: "Only when the service has a PORTAL_URL" },
    request_id: { type: "string", description: "500s only; the X-Request-Id to quote" }
  }, ["error"]),
  APIWarning: closed({
    code: { enum: ["unknown_jurisdiction", "unknown_type", "unknown_severity", "unknown_status", "not_covered", "covered_but_empty"] },
    value: { type: "string" },
    message: { type: "string" },
    did_you_mean: { type: "array", items: { type: "string" }, minItems: 1 }
  }, ["code", "value", "message"]),
  SourceCredit: closed({ name: { type: "string" }, text: { type: "string" }, url: nullable("string"), license: nullable("string") }),
  Event: closed(eventListFields),
  EventDetail: closed({
    ...Object.fromEntries(Object.entries(eventListFields)),
    location: point,
    estimated_start_time: nullableDateTime,
    source_created_at: nullableDateTime,
    source_updated_at: nullableDateTime,
    metadata: { type: "object" },
    archived_at: nullableDateTime,
    archive_reason: { enum: ["observed", "stale_sweep", null] }
  }),
  EventPage: paged(ref("Event")),
  EventCollection: featureCollection(closed({
    id: { type: "string" }, source: { type: "string" }, jurisdiction: { type: "string" }, type: { type: "string" },
    severity: { type: "string" }, status: { type: "string" }, title: { type: "string" },
    affected_roads: arrayOf({ type: "string" }), direction: nullable("string"), start_time: nullableDateTime
  })),
  Feature: closed(featureFields),
  FeaturePage: paged(ref("Feature")),
  FeatureCollection: featureCollection({ type: "object", required: ["id", "feature_type", "name"] }),
  Corridor: closed({
    from: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2, description: "[lat, lng]" },
    to: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2, description: "[lat, lng]" },
    buffer_km: { type: "number" },
    distance_km: { type: "number", description: "Great-circle length" }
  }),
  CorridorResult: closed({
    corridor: ref("Corridor"),
    data: arrayOf(ref("Feature")),
    total: { type: "integer" },
    limit: { type: "integer" },
    attribution: arrayOf(ref("SourceCredit")),
    warnings: arrayOf(ref("APIWarning"))
  }, ["corridor", "data", "total", "limit"]),
  CorridorCollection: {
    type: "object",
    required: ["type", "features", "corridor", "total", "limit"],
    additionalProperties: false,
    properties: {
      type: { const: "FeatureCollection" },
      features: arrayOf(closed({ type: { const: "Feature" }, id: { type: "string" }, geometry, properties: { type: "object", required: ["id", "feature_type", "_distance_km"] } })),
      corridor: ref("Corridor"), total: { type: "integer" }, limit: { type: "integer" },
      attribution: arrayOf(ref("SourceCredit"))
    }
  },
  WebhookSubscription: closed(webhookFields),
  WebhookSubscriptionCreated: closed({ ...webhookFields, secret: { type: "string", pattern: "^whsec_", description: "Shown only here" } }),
  WebhookSubscriptionList: closed({ data: arrayOf(ref("WebhookSubscription")) }),
  WebhookInput: {
    type: "object", additionalProperties: false, required: ["url", "jurisdiction"],
    properties: {
      url: { type: "string", format: "uri" }, name: { type: "string", maxLength: 200 },
      jurisdiction: codesIn, type: codesIn, sub_type: codesIn, severity: codesIn, cause: codesIn,
      batch_window_seconds: { type: ["integer", "null"], minimum: 1, maximum: 300 }
    }
  },
  WebhookPatch: {
    type: "object", additionalProperties: false,
    properties: {
      url: { type: "string", format: "uri" }, name: { type: "string", maxLength: 200 },
      jurisdiction: codesIn, type: codesIn, sub_type: codesIn, severity: codesIn, cause: codesIn,
      batch_window_seconds: { type: ["integer", "null"], minimum: 1, maximum: 300 }, enabled: { type: "boolean" }
    }
  },
  WebhookSecret: closed({ id: { type: "string" }, secret: { type: "string", pattern: "^whsec_" } }),
  WebhookTestResult: closed({
    delivered: { type: "boolean" }, delivery_id: { type: "string" }, status_code: nullable("integer"), latency_ms: { type: "integer" }, error: nullable("string")
  }, ["delivered", "status_code", "latency_ms", "error"]),
  WebhookDelivery: closed({
    id: { type: "string" }, event: { enum: ["event.created", "event.severity_change", "event.status_change", "event.archived", "batch"] },
    status: { enum: ["pending", "succeeded", "dead"] }, attempts: { type: "integer" }, change_ids: arrayOf({ type: "string" }),
    created_at: dateTime, next_attempt_at: nullableDateTime, finished_at: nullableDateTime, last_status_code: nullable("integer"), last_error: nullable("string"),
    history: arrayOf(closed({ attempt: { type: "integer" }, started_at: dateTime, status_code: nullable("integer"), error: nullable("string"), latency_ms: { type: "integer" } }))
  }),
  WebhookDeliveryPage: closed({
    data: arrayOf(ref("WebhookDelivery")), total: { type: "integer" }, limit: { type: "integer" }, offset: { type: "integer" }, has_more: { type: "boolean" }
  }),
  WebhookReplay: closed({ id: { type: "string" }, status: { const: "pending" } }),
  Plan: closed({
    id: { type: "integer" }, code: { enum: ["free", "starter", "pro", "enterprise"] }, name: { type: "string" }, description: { type: "string" },
    is_active: { type: "boolean" }, allow_analytics: { type: "boolean" }, allow_geojson: { type: "boolean" }, allow_truck_data: { type: "boolean" },
    allow_webhooks: { type: "boolean" }, data_delay_sec: { type: "integer", minimum: 0, description: "0 = real-time" },
    data_unit_price: { type: "number" }, features: arrayOf(closed({ key: { type: "string", description: "i18n key" }, label: { type: "string" } })),
    is_contact_sales: { type: "boolean" }, rate_limit_rpm: { type: "integer" }, daily_request_limit: nullable("integer"),
    max_limit: { type: "integer" }, max_batch_size: { type: "integer" }, max_jurisdictions: nullable("integer"),
    requires_jurisdiction: { type: "boolean" }, event_history_days: nullable("integer"), allow_archived_events: { type: "boolean" },
    allow_inactive_features: { type: "boolean" }, saved_route_slots: { type: "integer" }, monthly_routing_quota: { type: "integer" },
    trial_days: nullable("integer"), max_webhooks: { type: "integer" }
  }),
  Account: closed({
    customer: closed({
      id: { type: "integer" }, name: { type: "string" }, email: { type: "string" }, company: nullable("string"), email_verified: { type: "boolean" },
      is_active: { type: "boolean" }, plan_id: { type: "integer" }, created_at: dateTime, trial_ends_at: nullableDateTime,
      subscription_ends_at: nullableDateTime, subscription_status: { enum: ["none", "active", "canceled", "past_due", "paused"] }
    }),
    key: closed({
      id: { type: "integer" }, name: { type: "string" }, key_prefix: { type: "string" }, owner_email: { type: "string" }, is_active: { type: "boolean" },
      allowed_origins: arrayOf({ type: "string" }), rate_limit_rpm: { type: "integer", description: "In force: the key's own, else the plan's" },
      created_at: dateTime, expires_at: nullableDateTime, last_used_at: nullableDateTime
    }),
    plan: ref("Plan")
  }),
  FeatureTypeCount: closed({ type: { type: "string" }, count: { type: "integer" }, active_count: { type: "integer" } }),
  FeatureGroup: closed({ id: { type: "string" }, name: { type: "string" }, description: { type: "string" }, sort_order: { type: "integer" }, feature_types: arrayOf({ type: "string" }) }),
  FeatureDetails: closed(detailAnswer),
  FeatureDetailsBatch: closed({
    count: { type: "integer" },
    data: arrayOf({
      oneOf: [
        closed({ id: { type: "string" }, ...detailAnswer }),
        closed({ id: { type: "string" }, detail_available: { const: false }, cache: { const: "" }, not_found: { const: true } })
      ]
    })
  }),
  HistoryEntry: closed(historyEntry),
  Jurisdiction: closed({
    code: { type: "string" }, name: { type: "string" }, official_name: nullable("string"), country: { type: "string", pattern: "^[A-Z]{2}$" },
    scope: { enum: ["state", "federal", "regional"] }, group_id: nullable("string"), is_active: { type: "boolean" }, last_sync_at: nullableDateTime
  }),
  JurisdictionGroup: closed({
    id: { type: "string" }, name: { type: "string" }, description: nullable("string"), primary_jurisdiction_code: { type: "string" },
    members: arrayOf({ type: "string" }), sort_order: { type: "integer" }
  }),
  CoverageEntry: closed({
    jurisdiction: { type: "string" }, kind: { enum: ["feature", "event"] }, type: { type: "string" },
    row_count: { type: "integer", minimum: 0 }, latest_data_at: nullableDateTime, last_nonzero_at: nullableDateTime
  }),
  DataSource: closed({
    id: { type: "string" }, jurisdiction: { type: "string" }, format: { type: "string" }, kind: { enum: ["events", "features", "prices"] },
    yields: arrayOf({ type: "string" }), poll_interval_s: { type: "number" }, last_poll_at: nullableDateTime,
    last_outcome: { enum: ["ok", "not_modified", "empty", "error", null] }, requires_attribution: { type: "boolean" },
    attribution: { oneOf: [{ type: "null" }, ref("SourceCredit")] }
  }),
  StatsSummary: closed({
    jurisdictions: closed({ total: { type: "integer" }, active: { type: "integer" }, by_country: { type: "object", additionalProperties: { type: "integer" } } }),
    events: closed({ active: { type: "integer" }, by_type: { type: "object", additionalProperties: { type: "integer" } }, by_severity: { type: "object", additionalProperties: { type: "integer" } } }),
    features: closed({ total: { type: "integer" }, by_type: { type: "object", additionalProperties: { type: "integer" } } }),
    last_sync: nullableDateTime,
    uptime: { type: "integer", description: "Seconds since this API process started" }
  }),
  FuelPrice: closed({
    id: { type: "integer" }, jurisdiction: { type: "string" }, area: nullable("string"), country: { enum: ["US", "CA"] },
    fuel_type: { type: "string" }, price: { type: "number" }, currency: { enum: ["USD", "CAD"] }, unit: { enum: ["gallon", "litre"] },
    period_date: { type: "string", format: "date" }, observed_at: dateTime, frequency: { enum: ["weekly", "monthly"] }, source: { type: "string" }
  }),
  FuelPricePage: closed({
    data: arrayOf(ref("FuelPrice")), total: { type: "integer" }, limit: { type: "integer" }, offset: { type: "integer" }, has_more: { type: "boolean" }
  }),
  Status: closed({
    overall: { enum: ["ok", "degraded", "down"] },
    generated_at: dateTime,
    worker: closed({ last_seen: nullableDateTime, staleness_seconds: nullable("integer"), healthy: { type: "boolean" } }),
    total_resources: { type: "integer" }, healthy: { type: "integer" }, warning: { type: "integer" }, critical: { type: "integer" },
    jurisdictions: arrayOf(closed({
      code: { type: "string" }, name: { type: "string" }, country: { type: "string" }, status: { enum: ["healthy", "warning", "critical"] },
      total_resources: { type: "integer" }, open_circuits: { type: "integer" }, uptime_7day_percent: nullable("number")
    }))
  }),
  Health: closed({
    status: { enum: ["ok", "degraded"] }, version: { type: "string" }, uptime: { type: "integer" },
    db: { type: "string", pattern: "^(ok|down)/(ok|down)$", description: "<postgres>/<redis>" }
  })
}
