import { Schema } from "effect"
import { PLAN_GATE_CODES } from "../http/HttpError.js"
import { WARNING_CODES } from "../warnings.js"
import {
  Count,
  DateTime,
  Int,
  NullableDateTime,
  NullableText,
  OpenObject,
  Texts
} from "../../shared/schema/jsonShapes.js"

export { Count, DateTime, Int, NullableDateTime, NullableText, OpenObject, Texts }

/**
 * Building blocks of the response Schemas. They describe the JSON the API sends (the OpenAPI
 * document is generated from them); objects we own are closed, so the contract test fails on
 * a field a Schema does not declare. Upstream-shaped bags (`properties`, `metadata`) stay open.
 */
export const ErrorBody = Schema.Struct({
  error: Schema.String.annotations({ description: "Human-readable and stable" }),
  docs_url: Schema.String.annotations({ description: "Relative same-host link to the page that explains it" }),
  code: Schema.optional(
    Schema.Literal(...PLAN_GATE_CODES).annotations({ description: "Plan-gate 403s only; branch on this, not on error" })
  ),
  plan: Schema.optional(Schema.String),
  plan_name: Schema.optional(Schema.String),
  upgrade_url: Schema.optional(Schema.String.annotations({ description: "Only when the service has a PORTAL_URL" })),
  request_id: Schema.optional(Schema.String.annotations({ description: "500s only; the X-Request-Id to quote" }))
}).annotations({ identifier: "Error" })

export const ApiWarning = Schema.Struct({
  code: Schema.Literal(...WARNING_CODES),
  value: Schema.String,
  message: Schema.String,
  did_you_mean: Schema.optional(Schema.NonEmptyArray(Schema.String))
}).annotations({ identifier: "APIWarning" })

export const SourceCredit = Schema.Struct({
  name: Schema.String,
  text: Schema.String,
  url: NullableText,
  license: NullableText
}).annotations({ identifier: "SourceCredit" })

const listExtras = {
  attribution: Schema.optional(Schema.Array(SourceCredit)),
  warnings: Schema.optional(Schema.Array(ApiWarning))
}

/** The paged envelope of SPEC §2.3. */
export const Paged = <S extends Schema.Schema.Any>(item: S, identifier: string) =>
  Schema.Struct({
    data: Schema.Array(item),
    total: Count,
    limit: Count,
    offset: Count,
    has_more: Schema.Boolean,
    next_cursor: Schema.optional(
      Schema.String.annotations({
        description: "Present only while has_more is true; pass it as `cursor` for the next page"
      })
    ),
    ...listExtras
  }).annotations({ identifier })

/** An RFC 7946 geometry, coordinates [longitude, latitude]. */
export const Geometry = Schema.Struct(
  {
    type: Schema.Literal(
      "Point",
      "LineString",
      "Polygon",
      "MultiPoint",
      "MultiLineString",
      "MultiPolygon",
      "GeometryCollection"
    )
  },
  { key: Schema.String, value: Schema.Unknown }
).annotations({ identifier: "Geometry", description: "RFC 7946 geometry, coordinates [longitude, latitude]" })

/** A paged list as a FeatureCollection: paging and credits as foreign members. */
export const FeatureCollectionOf = <P extends Schema.Schema.Any>(properties: P, identifier: string) =>
  Schema.Struct({
    type: Schema.Literal("FeatureCollection"),
    features: Schema.Array(
      Schema.Struct({ type: Schema.Literal("Feature"), id: Schema.String, geometry: Geometry, properties })
    ),
    total: Count,
    limit: Count,
    offset: Count,
    has_more: Schema.Boolean,
    next_cursor: Schema.optional(Schema.String),
    attribution: Schema.optional(Schema.Array(SourceCredit))
  }).annotations({ identifier })

export const DataOf = <S extends Schema.Schema.Any>(item: S, identifier: string) =>
  Schema.Struct({ data: Schema.Array(item) }).annotations({ identifier })
