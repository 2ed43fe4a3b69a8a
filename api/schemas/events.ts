import { QUALITY_FLAG_WORDS, QUALITY_FLAGS } from "../../shared/domain/qualityFlags.js"
import { Schema } from "effect"
import { HistoryType } from "../../shared/domain/Change.js"
import { ArchiveReason, EventStatus, EventType, Severity } from "../../shared/domain/Event.js"
import {
  Count,
  DateTime,
  FeatureCollectionOf,
  NullableDateTime,
  NullableText,
  OpenObject,
  Paged,
  Texts
} from "./common.js"

const QualityFlags = Schema.Array(Schema.Literal(...QUALITY_FLAGS)).annotations({
  description:
    "What the agency's record cannot be taken at its word on; empty when nothing. " +
    QUALITY_FLAGS.map((f) => `${f}: ${QUALITY_FLAG_WORDS[f]}.`).join(" ") +
    " end_time_passed is judged when the event is read: the agency's end (or estimated end) more than an hour before then, while its feed still lists the event"
})

const listFields = {
  id: Schema.String.annotations({ description: "Stable id: ev_ + 22 characters" }),
  source_id: Schema.String,
  source: Schema.String,
  jurisdiction: Schema.String,
  type: EventType,
  sub_type: NullableText,
  cause: NullableText,
  severity: Severity,
  status: EventStatus,
  title: Schema.String,
  description: Schema.String,
  affected_roads: Texts,
  direction: NullableText,
  lanes_affected: Schema.optional(
    Schema.String.annotations({ description: "Omitted when the source does not say which lanes (never null)" })
  ),
  start_time: NullableDateTime,
  end_time: NullableDateTime,
  estimated_end_time: NullableDateTime,
  latitude: Schema.Number.annotations({ jsonSchema: { type: "number", minimum: -90, maximum: 90 } }),
  longitude: Schema.Number.annotations({ jsonSchema: { type: "number", minimum: -180, maximum: 180 } }),
  road_class: NullableText,
  last_updated: DateTime,
  created_at: DateTime,
  quality_flags: QualityFlags,
  related: Schema.Array(
    Schema.Struct({
      id: Schema.String.annotations({ description: "The other report's event id" }),
      source: Schema.String,
      reason: Schema.String.annotations({
        description: "Why they are one event: road, direction, gap along the road, times, types"
      }),
      confidence: Schema.Number.annotations({
        jsonSchema: { type: "number", exclusiveMinimum: 0, maximum: 1 },
        description:
          "1 for the same type and direction touching; less for compatible types, an unstated direction, distance"
      })
    }).annotations({ identifier: "RelatedEvent" })
  ).annotations({
    description:
      "Other sources' reports of the same real-world event; each keeps its own id and history. Empty when none"
  })
}

const AlsoReportedBy = Schema.Array(
  Schema.Struct({ id: Schema.String, source: Schema.String }).annotations({ identifier: "AlsoReportedBy" })
).annotations({
  description: "Only with dedupe=true: the other reports of this event (its linked group), left out of the list"
})

export const Event = Schema.Struct({ ...listFields, also_reported_by: Schema.optional(AlsoReportedBy) }).annotations({
  identifier: "Event"
})

const Point = Schema.Struct({
  type: Schema.Literal("Point"),
  coordinates: Schema.Array(Schema.Number).annotations({
    jsonSchema: {
      type: "array",
      items: { type: "number" },
      minItems: 2,
      maxItems: 3,
      description: "[longitude, latitude]"
    }
  })
})

export const EventDetail = Schema.Struct({
  ...listFields,
  location: Point,
  estimated_start_time: NullableDateTime,
  source_created_at: NullableDateTime,
  source_updated_at: NullableDateTime,
  metadata: OpenObject,
  archived_at: NullableDateTime,
  archive_reason: Schema.NullOr(ArchiveReason)
}).annotations({ identifier: "EventDetail" })

export const EventPage = Paged(Event, "EventPage")

export const EventCollection = FeatureCollectionOf(
  Schema.Struct({
    id: Schema.String,
    source: Schema.String,
    jurisdiction: Schema.String,
    type: EventType,
    severity: Severity,
    status: EventStatus,
    title: Schema.String,
    affected_roads: Texts,
    direction: NullableText,
    start_time: NullableDateTime,
    quality_flags: QualityFlags
  }),
  "EventCollection"
)

const historyFields = {
  id: Count,
  event_id: Schema.String,
  change_type: HistoryType,
  old_value: NullableText,
  new_value: NullableText,
  changed_at: DateTime
}
export const HistoryEntry = Schema.Struct(historyFields).annotations({ identifier: "HistoryEntry" })

/** A change across events (/analytics/changes): a history entry with its event's jurisdiction and title. */
export const ChangeEntry = Schema.Struct({
  ...historyFields,
  jurisdiction: Schema.String,
  event_title: Schema.String
}).annotations({ identifier: "ChangeEntry" })
export const ChangePage = Paged(ChangeEntry, "ChangePage")
