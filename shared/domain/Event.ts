import { Schema } from "effect"

export const EventType = Schema.Literal(
  "incident",
  "construction",
  "closure",
  "weather",
  "special_event",
  "advisory",
  "restriction"
)
export type EventType = typeof EventType.Type
export const EVENT_TYPES = EventType.literals

export const Severity = Schema.Literal("minor", "moderate", "major", "critical")
export type Severity = typeof Severity.Type
export const SEVERITIES = Severity.literals

export const EventStatus = Schema.Literal("active", "archived")
export type EventStatus = typeof EventStatus.Type
export const EVENT_STATUSES = EventStatus.literals

export const ArchiveReason = Schema.Literal("observed", "stale_sweep")
export type ArchiveReason = typeof ArchiveReason.Type

const NullableString = Schema.NullOr(Schema.String)

/** GeoJSON geometry as published; validated loosely (type + coordinates). */
export const Geometry = Schema.Struct({ type: Schema.String, coordinates: Schema.Unknown })
export type Geometry = typeof Geometry.Type

/**
 * One event as an adapter observes it: the normalized content of SPEC §2.1 without the
 * service's own bookkeeping (id, created_at, last_updated, archive fields).
 */
export const EventObservation = Schema.Struct({
  source_id: Schema.String,
  jurisdiction: Schema.String,
  type: EventType,
  sub_type: NullableString,
  cause: NullableString,
  severity: Severity,
  status: EventStatus,
  title: Schema.String,
  description: Schema.String,
  latitude: Schema.Number,
  longitude: Schema.Number,
  geometry: Schema.NullOr(Geometry),
  affected_roads: Schema.Array(Schema.String),
  direction: NullableString,
  lanes_affected: NullableString,
  start_time: NullableString,
  end_time: NullableString,
  estimated_start_time: NullableString,
  estimated_end_time: NullableString,
  source_created_at: NullableString,
  source_updated_at: NullableString,
  road_class: NullableString,
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /**
   * What the record says of its own data (shared/domain/qualityFlags.ts), set by the editor every
   * event passes through. An adapter whose agency gives no severity sets `severity_inferred`, and
   * the editor works the severity out from the facts.
   */
  quality_flags: Schema.optional(Schema.Array(Schema.String))
})
export type EventObservation = typeof EventObservation.Type
