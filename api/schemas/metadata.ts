import { Schema } from "effect"
import {
  ApiWarning,
  Count,
  DataOf,
  DateTime,
  Int,
  NullableDateTime,
  NullableText,
  SourceCredit,
  Texts
} from "./common.js"

const Counts = Schema.Record({ key: Schema.String, value: Count })

/** What the editor repaired and flagged among the records a source's feed lists now. */
export const SourceQuality = Schema.Struct({
  repaired: Counts.annotations({
    description:
      "Records whose text the editor repaired, by kind: markup, whitespace, placeholder, code_words, milepost_code, agency_prefix, title_cut, description_written (docs/ADAPTERS.md, The editor)"
  }),
  flagged: Counts.annotations({
    description:
      "Records carrying each quality flag (end_time_passed judged now), and features whose reading is stale (stale_reading)"
  })
}).annotations({
  identifier: "SourceQuality",
  description:
    "Over the records the source's feed lists now (its active events and features), counted at most once a minute"
})

export const Jurisdiction = Schema.Struct({
  code: Schema.String,
  name: Schema.String,
  official_name: NullableText,
  country: Schema.String.annotations({ jsonSchema: { type: "string", pattern: "^[A-Z]{2}$" } }),
  scope: Schema.Literal("state", "federal", "regional"),
  group_id: NullableText,
  is_active: Schema.Boolean,
  last_sync_at: NullableDateTime
}).annotations({ identifier: "Jurisdiction" })

export const JurisdictionGroup = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: NullableText,
  primary_jurisdiction_code: Schema.String,
  members: Texts,
  sort_order: Int
}).annotations({ identifier: "JurisdictionGroup" })

export const CoverageEntry = Schema.Struct({
  jurisdiction: Schema.String,
  kind: Schema.Literal("feature", "event"),
  type: Schema.String,
  row_count: Count,
  latest_data_at: NullableDateTime,
  last_nonzero_at: NullableDateTime
}).annotations({ identifier: "CoverageEntry" })
export const CoverageList = DataOf(CoverageEntry, "CoverageList")

export const DataSource = Schema.Struct({
  id: Schema.String,
  jurisdiction: Schema.String,
  format: Schema.String,
  kind: Schema.Literal("events", "features", "prices"),
  yields: Texts,
  poll_interval_s: Schema.Number,
  last_poll_at: NullableDateTime,
  last_outcome: Schema.NullOr(Schema.Literal("ok", "not_modified", "empty", "error")),
  requires_attribution: Schema.Boolean,
  attribution: Schema.NullOr(SourceCredit),
  last_read: Schema.NullOr(
    Schema.Struct({
      polled_at: DateTime,
      records: Count.annotations({
        description: "Records the payload held that were read (new, changed or unchanged)"
      }),
      rejected: Count.annotations({ description: "Records refused (quarantined), all of them" }),
      top_reasons: Schema.Array(
        Schema.Struct({
          reason: Schema.String.annotations({
            description: "The kind of refusal: numbers and quoted values folded, so one drifting field is one reason"
          }),
          count: Count,
          example: Schema.String.annotations({ description: "One refusal of this kind as the adapter wrote it" })
        }).annotations({ identifier: "RejectionReason" })
      ).annotations({ description: "At most 5, commonest first" }),
      quality: SourceQuality
    }).annotations({
      identifier: "LastRead",
      description: "The last poll that read a payload (a 304 or a failed fetch reads none); null before the first"
    })
  )
}).annotations({ identifier: "DataSource" })
export const DataSourceList = DataOf(DataSource, "DataSourceList")

export const StatsSummary = Schema.Struct({
  jurisdictions: Schema.Struct({ total: Count, active: Count, by_country: Counts }),
  events: Schema.Struct({ active: Count, by_type: Counts, by_severity: Counts }),
  features: Schema.Struct({ total: Count, by_type: Counts }),
  last_sync: NullableDateTime,
  uptime: Count.annotations({ description: "Seconds since this API process started" })
}).annotations({ identifier: "StatsSummary" })

export const FuelPrice = Schema.Struct({
  id: Int,
  jurisdiction: Schema.String,
  area: NullableText,
  country: Schema.Literal("US", "CA"),
  fuel_type: Schema.String,
  price: Schema.Number,
  currency: Schema.Literal("USD", "CAD"),
  unit: Schema.Literal("gallon", "litre"),
  period_date: Schema.String.annotations({ jsonSchema: { type: "string", format: "date" } }),
  observed_at: DateTime,
  frequency: Schema.Literal("weekly", "monthly"),
  source: Schema.String
}).annotations({ identifier: "FuelPrice" })

/** Fuel prices page with offset only (no cursor). */
export const FuelPricePage = Schema.Struct({
  data: Schema.Array(FuelPrice),
  total: Count,
  limit: Count,
  offset: Count,
  has_more: Schema.Boolean,
  attribution: Schema.optional(Schema.Array(SourceCredit)),
  warnings: Schema.optional(Schema.Array(ApiWarning))
}).annotations({ identifier: "FuelPricePage" })

export const Status = Schema.Struct({
  overall: Schema.Literal("ok", "degraded", "down"),
  generated_at: DateTime,
  worker: Schema.Struct({
    last_seen: NullableDateTime,
    staleness_seconds: Schema.NullOr(Int),
    healthy: Schema.Boolean
  }),
  total_resources: Count,
  healthy: Count,
  warning: Count,
  critical: Count,
  jurisdictions: Schema.Array(
    Schema.Struct({
      code: Schema.String,
      name: Schema.String,
      country: NullableText,
      status: Schema.Literal("healthy", "warning", "critical"),
      total_resources: Count,
      open_circuits: Count,
      uptime_7day_percent: Schema.NullOr(Schema.Number)
    })
  )
}).annotations({ identifier: "Status" })

/** One day's polls of a source (UTC day); `uptime_percent` null on a day without polls. */
const UptimeDay = Schema.Struct({
  day: Schema.String.annotations({ jsonSchema: { type: "string", format: "date" } }),
  polls: Count,
  uptime_percent: Schema.NullOr(Schema.Number)
})

/** Public per-source detail behind the status page (not in SPEC §4.6; see docs/api/api.md). */
export const SourceStatus = Schema.Struct({
  id: Schema.String,
  jurisdiction: Schema.String,
  jurisdiction_name: Schema.String,
  kind: NullableText,
  format: NullableText,
  poll_interval_s: Count,
  last_poll_at: NullableDateTime,
  last_outcome: Schema.NullOr(Schema.Literal("ok", "not_modified", "empty", "error")),
  last_http_status: Schema.NullOr(Int),
  circuit: Schema.Literal("closed", "open"),
  circuit_open_until: NullableDateTime,
  records: Schema.NullOr(Count).annotations({ description: "Records in the last poll that read the feed" }),
  rejected_7d: Count,
  top_reasons: Schema.Array(Schema.Struct({ reason: Schema.String, count: Count })),
  quality: SourceQuality,
  uptime_7day_percent: Schema.NullOr(Schema.Number),
  uptime_by_day: Schema.Array(UptimeDay)
}).annotations({ identifier: "SourceStatus" })

export const SourceStatusReport = Schema.Struct({
  generated_at: DateTime,
  sources: Schema.Array(SourceStatus),
  stages: Schema.Array(
    Schema.Struct({
      group: Schema.String,
      lag_messages: Count,
      pending: Count,
      behind_seconds: Schema.NullOr(Schema.Number).annotations({
        description: "Age of the oldest change the group has not finished; 0 when caught up"
      })
    })
  ),
  incidents: Schema.Array(
    Schema.Struct({
      source: Schema.String,
      jurisdiction: Schema.String,
      began_at: DateTime,
      ended_at: NullableDateTime,
      failed_polls: Count,
      skipped_polls: Count
    })
  )
}).annotations({ identifier: "SourceStatusReport" })

export const Health = Schema.Struct({
  status: Schema.Literal("ok", "degraded"),
  version: Schema.String,
  uptime: Count,
  db: Schema.String.annotations({
    jsonSchema: { type: "string", pattern: "^(ok|down)/(ok|down)$" },
    description: "<postgres>/<redis>"
  })
}).annotations({ identifier: "Health" })
