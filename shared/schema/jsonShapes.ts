import { Schema } from "effect"

/**
 * Building blocks of the JSON Schemas both the API's answers and a context's requests use
 * (the OpenAPI document is generated from them).
 */
export const DateTime = Schema.String.annotations({ jsonSchema: { type: "string", format: "date-time" } })
export const NullableDateTime = Schema.NullOr(DateTime)
export const Int = Schema.Number.annotations({ jsonSchema: { type: "integer" } })
export const Count = Schema.Number.annotations({ jsonSchema: { type: "integer", minimum: 0 } })
export const NullableText = Schema.NullOr(Schema.String)
/** An object whose keys the source decides. */
export const OpenObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })
export const Texts = Schema.Array(Schema.String)
