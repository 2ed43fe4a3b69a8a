import { Either, ParseResult, Schema } from "effect"
import { ArchiveReason, EventObservation, Severity } from "./Event.js"
import { FeatureObservation } from "./Feature.js"
import { FuelPriceObservation } from "./FuelPrice.js"
import { compiledGuard } from "../schema/compiledGuard.js"

/** History entry kinds written for events (SPEC §4.5 plus the ones it says are also recorded). */
export const HistoryType = Schema.Literal(
  "created",
  "severity_change",
  "status_change",
  "lanes_change",
  "end_time_change",
  "archived"
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

/** Routing and ordering fields shared by event and feature changes. */
const commonFields = {
  change_id: Schema.String,
  source: Schema.String,
  source_id: Schema.String,
  version: Schema.Number,
  at: Schema.String,
  emitted_at: Schema.String,
  content_hash: Schema.String
}

const headerFields = {
  ...commonFields,
  kind: Schema.Literal("event"),
  op: Schema.Literal("created", "updated", "archived"),
  event_id: Schema.String
}

/**
 * The stream wire format. `change_id` = `<event_id>:<version>` is assigned by the differ and
 * survives a Redis restart (unlike the stream entry id); `version` orders writes per event.
 */
export const EventChange = Schema.Struct({
  ...headerFields,
  keys: ChangeKeys,
  fields: Schema.Array(FieldChange),
  /** Full content on created/updated; absent on archive. */
  event: Schema.optional(EventObservation),
  archive_reason: Schema.optional(ArchiveReason)
})
export type EventChange = typeof EventChange.Type

/** Feature history entry kinds (SPEC §3: created, deactivated, reactivated). */
export const FeatureHistoryType = Schema.Literal("created", "deactivated", "reactivated")
export type FeatureHistoryType = typeof FeatureHistoryType.Type

const featureHeaderFields = {
  ...commonFields,
  kind: Schema.Literal("feature"),
  op: Schema.Literal("created", "updated", "deactivated", "reactivated"),
  feature_id: Schema.String
}

/**
 * A feature's lifecycle or content change on the same stream. `feature` holds the full content,
 * except on a deactivation because the feature left the feed (the row keeps its last content).
 */
export const FeatureChange = Schema.Struct({
  ...featureHeaderFields,
  keys: Schema.Struct({ jurisdiction: Schema.String, feature_type: Schema.String }),
  fields: Schema.Array(
    Schema.Struct({
      change_type: FeatureHistoryType,
      old_value: Schema.NullOr(Schema.String),
      new_value: Schema.NullOr(Schema.String)
    })
  ),
  feature: Schema.optional(FeatureObservation)
})
export type FeatureChange = typeof FeatureChange.Type

const priceHeaderFields = {
  ...commonFields,
  kind: Schema.Literal("fuel_price"),
  op: Schema.Literal("created", "updated")
}

/** A new or revised fuel price row; prices are a time series and never retire. */
export const FuelPriceChange = Schema.Struct({ ...priceHeaderFields, price: FuelPriceObservation })
export type FuelPriceChange = typeof FuelPriceChange.Type

export type Change = EventChange | FeatureChange | FuelPriceChange

/**
 * What a consumer checks on every message: the header fields. The stream is ours (only the
 * differ writes it, from typed values), so the nested event is not re-validated per message;
 * a message failing this check is dead-lettered with the full schema's explanation.
 */
const ChangeEnvelope = Schema.Union(
  Schema.Struct({
    ...headerFields,
    fields: Schema.Array(Schema.Unknown),
    keys: Schema.Object,
    event: Schema.optional(Schema.Object)
  }),
  Schema.Struct({
    ...featureHeaderFields,
    fields: Schema.Array(Schema.Unknown),
    keys: Schema.Object,
    feature: Schema.optional(Schema.Object)
  }),
  Schema.Struct({ ...priceHeaderFields, price: Schema.Object })
)
const isChange = compiledGuard(ChangeEnvelope)
const explain = Schema.decodeUnknownEither(Schema.Union(EventChange, FeatureChange, FuelPriceChange))

/** Stream message body → Change, checked without copying (this runs for every message of every stage). */
export const decodeChange = (body: string): Either.Either<Change, string> => {
  let raw: unknown
  try {
    raw = JSON.parse(body)
  } catch (e) {
    return Either.left(`not JSON: ${String(e).slice(0, 200)}`)
  }
  const complete = (c: typeof ChangeEnvelope.Type) =>
    c.kind === "fuel_price"
      ? true
      : c.kind === "feature"
        ? c.op === "deactivated" || c.feature !== undefined
        : c.op === "archived" || c.event !== undefined
  if (isChange(raw) && complete(raw)) {
    return Either.right(raw as unknown as Change)
  }
  const r = explain(raw)
  return Either.left(
    Either.isLeft(r) ? ParseResult.TreeFormatter.formatErrorSync(r.left).slice(0, 500) : "invalid change"
  )
}
