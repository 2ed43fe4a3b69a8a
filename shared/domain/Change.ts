import { Schema } from "effect"
import { ArchiveReason, EventObservation, Severity } from "./Event.js"

/** History entry kinds written for events (SPEC §4.5 plus the ones it says are also recorded). */
export const HistoryType = Schema.Literal(
  "created", "severity_change", "status_change", "lanes_change", "end_time_change", "archived"
)
export type HistoryType = typeof HistoryType.Type

export const FieldChange = Schema.Struct({
  change_type: HistoryType,
  old_value: Schema.NullOr(Schema.String),
  new_value: Schema.NullOr(Schema.String)
})
export type FieldChange = typeof FieldChange.Type

/** Filter keys every change carries, so downstream stages never need a lookup to route it. */
export const ChangeKeys = Schema.Struct({
  jurisdiction: Schema.String,
  type: Schema.String,
  sub_type: Schema.NullOr(Schema.String),
  cause: Schema.NullOr(Schema.String),
  severity: Severity,
  road_name: Schema.NullOr(Schema.String)
})
export type ChangeKeys = typeof ChangeKeys.Type

/**
 * The stream wire format. `change_id` = `<event_id>:<version>` is assigned by the differ and
 * survives a Redis restart (unlike the stream entry id); `version` orders writes per event.
 */
export const EventChange = Schema.Struct({
  change_id: Schema.String,
  kind: Schema.Literal("event"),
  op: Schema.Literal("created", "updated", "archived"),
  event_id: Schema.String,
  source: Schema.String,
  source_id: Schema.String,
  version: Schema.Number,
  at: Schema.String,
  emitted_at: Schema.String,
  keys: ChangeKeys,
  fields: Schema.Array(FieldChange),
  content_hash: Schema.String,
  /** Full content on created/updated; absent on archive. */
  event: Schema.optional(EventObservation),
  archive_reason: Schema.optional(ArchiveReason)
})
export type EventChange = typeof EventChange.Type

export const decodeChange = Schema.decodeUnknownEither(Schema.parseJson(EventChange))
