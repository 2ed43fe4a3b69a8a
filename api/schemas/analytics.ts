import { Schema } from "effect"
import { FeatureHistoryType } from "../../shared/domain/Change.js"
import { EventType } from "../../shared/domain/Event.js"
import { Count, DateTime, NullableText, Paged } from "./common.js"

const Minutes = Schema.Number.annotations({ description: "Minutes, two decimals" })
const NullableNumber = Schema.NullOr(Schema.Number)
const Counts = Schema.Record({ key: Schema.String, value: Count })

export const ClearanceRow = Schema.Struct({
  jurisdiction: Schema.String,
  event_type: EventType,
  total_events: Count.annotations({ description: "Cleared events counted" }),
  p50_minutes: Minutes,
  p95_minutes: Minutes,
  avg_minutes: Minutes
}).annotations({ identifier: "ClearanceRow" })

export const CorridorRow = Schema.Struct({
  road: Schema.String,
  jurisdiction: Schema.String,
  total_events: Count,
  avg_clearance_minutes: Schema.NullOr(Minutes),
  incident_count: Count,
  construction_count: Count
}).annotations({ identifier: "CorridorRow" })

export const TrendRow = Schema.Struct({
  period: Schema.String.annotations({
    description: "Period start in UTC: YYYY-MM-DD for day and week (the Monday), YYYY-MM-DDTHH:00:00Z for hour"
  }),
  total: Count,
  by_type: Schema.optional(Counts.annotations({ description: "group_by=type (default): every event type" })),
  by_severity: Schema.optional(Counts.annotations({ description: "group_by=severity: every severity" })),
  by_jurisdiction: Schema.optional(
    Counts.annotations({ description: "group_by=jurisdiction: every jurisdiction present in the window" })
  )
}).annotations({ identifier: "TrendRow" })

export const HotspotRow = Schema.Struct({
  cluster_id: Schema.String.annotations({
    description: "The H3 cell index of the cluster at the requested resolution"
  }),
  latitude: Schema.Number.annotations({ description: "Mean latitude of the cluster's events" }),
  longitude: Schema.Number.annotations({ description: "Mean longitude of the cluster's events" }),
  event_count: Count,
  radius_km: Schema.Number.annotations({
    description: "Distance from the centre to the farthest event of the cluster"
  }),
  top_type: EventType,
  top_road: NullableText
}).annotations({ identifier: "HotspotRow" })

const readingFields = {
  temperature: Schema.NullOr(Schema.Number).annotations({ description: "In the station's own unit" }),
  temperature_c: NullableNumber,
  humidity: Schema.NullOr(Schema.Number).annotations({ description: "Percent" }),
  precipitation: NullableText,
  road_surface: NullableText,
  visibility: Schema.NullOr(Schema.Number).annotations({ description: "In the source's own unit" }),
  wind_speed: Schema.NullOr(Schema.Number).annotations({ description: "In the source's own unit" }),
  wind_direction: Schema.NullOr(Schema.String).annotations({ description: "As published: degrees or a compass point" }),
  temperature_units: Schema.NullOr(Schema.String).annotations({
    description: "The unit of `temperature` as the station published it (C or F); null when it named none"
  }),
  wind_speed_units: Schema.NullOr(Schema.String).annotations({
    description: "The unit of `wind_speed` as the station published it (e.g. km/h, mph); null when it named none"
  }),
  visibility_units: Schema.NullOr(Schema.String).annotations({
    description: "The unit of `visibility` as the station published it (e.g. km, mi); null when it named none"
  })
}

export const WeatherReading = Schema.Struct({
  station_id: Schema.String,
  name: Schema.String,
  jurisdiction: Schema.String,
  latitude: Schema.Number,
  longitude: Schema.Number,
  ...readingFields,
  recorded_at: DateTime,
  is_active: Schema.Boolean
}).annotations({ identifier: "WeatherReading" })

export const EventWeatherSnapshot = Schema.Struct({
  id: Count,
  event_id: Schema.String,
  station_id: Schema.String,
  created_at: DateTime.annotations({ description: "The event's creation" }),
  reading_recorded_at: DateTime,
  distance_km: Schema.Number.annotations({ description: "Event to station, great-circle" }),
  ...readingFields
}).annotations({ identifier: "EventWeatherSnapshot" })

export const CorrelationRow = Schema.Struct({
  precipitation: Schema.String.annotations({
    description: "From the event's weather snapshot; unknown when the station did not report it"
  }),
  road_surface: Schema.String,
  total_events: Count,
  by_severity: Counts,
  severity_share: Schema.Record({ key: Schema.String, value: Schema.Number }).annotations({
    description: "Share of total_events per severity, 4 decimals"
  }),
  avg_clearance_minutes: Schema.NullOr(Minutes)
}).annotations({ identifier: "WeatherCorrelationRow" })

export const FeatureHistoryEntry = Schema.Struct({
  id: Count,
  feature_id: Schema.String,
  feature_type: Schema.String,
  jurisdiction: Schema.String,
  feature_name: Schema.String,
  change_type: FeatureHistoryType,
  old_value: NullableText,
  new_value: NullableText,
  changed_at: DateTime
}).annotations({ identifier: "FeatureHistoryEntry" })
export const FeatureHistoryPage = Paged(FeatureHistoryEntry, "FeatureHistoryPage")
