import { Effect, ParseResult, Schema } from "effect"
import { BadRequest } from "./HttpError.js"
import { RequestAuth } from "./RequestAuth.js"

/**
 * Query and path parameter schemas: each decodes the raw string into a typed value or fails
 * with a message in user terms ("must be a whole number from 1 to 10,000"); the bridge puts the
 * parameter's name in front. The `jsonSchema` annotation is what the OpenAPI document shows.
 */

/** 10000 → "10,000": ranges read as people write them. */
export const figure = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 6 })

type JsonSchema = Record<string, unknown>

/** A parameter read from its string form; `read` returns the value, or a message saying what is wanted. */
const param = <A>(
  jsonSchema: JsonSchema,
  description: string,
  read: (s: string) => { ok: A } | { wanted: string },
  write: (a: A) => string = String
) =>
  Schema.transformOrFail(Schema.String, Schema.Any as Schema.Schema<A>, {
    strict: true,
    decode: (s, _, ast) => {
      const r = read(s)
      return "ok" in r ? ParseResult.succeed(r.ok) : ParseResult.fail(new ParseResult.Type(ast, s, r.wanted))
    },
    encode: (a) => ParseResult.succeed(write(a))
  }).annotations({ jsonSchema, description })

const INT = /^[+-]?\d+$/
const NUM = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i

/** A number in [min, max]; `exclusiveMin` makes the lower bound open (radius 0 is no search). */
export const Num = (min: number, max: number, description = "", exclusiveMin = false) =>
  param<number>(
    { type: "number", ...(exclusiveMin ? { exclusiveMinimum: min } : { minimum: min }), maximum: max },
    description,
    (s) => {
      const n = Number(s)
      const inRange = NUM.test(s) && Number.isFinite(n) && (exclusiveMin ? n > min : n >= min) && n <= max
      return inRange
        ? { ok: n }
        : {
            wanted: `must be a number ${exclusiveMin ? "above" : "from"} ${figure(min)} ${exclusiveMin ? "and at most" : "to"} ${figure(max)}`
          }
    }
  )

/** A whole number in [min, max]. */
export const Int = (min: number, max: number, description = "") =>
  param<number>({ type: "integer", minimum: min, maximum: max }, description, (s) =>
    INT.test(s) && Number(s) >= min && Number(s) <= max
      ? { ok: Number(s) }
      : { wanted: `must be a whole number from ${figure(min)} to ${figure(max)}` }
  )

export const Bool = (description = "") =>
  param<boolean>({ type: "boolean" }, description, (s) => {
    const v = s.toLowerCase()
    return v === "true" || v === "1"
      ? { ok: true }
      : v === "false" || v === "0"
        ? { ok: false }
        : { wanted: "must be true or false" }
  })

/** Free text, already trimmed by the bridge. */
export const Text = (description = "", maxLength = 2000) =>
  param<string>({ type: "string", maxLength }, description, (s) =>
    s.length <= maxLength ? { ok: s } : { wanted: `is too long (at most ${figure(maxLength)} characters)` }
  )

/** An id in a path: bounded so no lookup runs on a megabyte of text. */
export const Id = (description: string, maxLength = 200) => Text(description, maxLength)

/** One of fixed lower-case values, case-insensitive. */
export const OneOf = <const V extends string>(values: ReadonlyArray<V>, description = "") =>
  param<V>({ type: "string", enum: values }, description, (s) => {
    const v = s.toLowerCase()
    return values.includes(v as V) ? { ok: v as V } : { wanted: `must be one of ${values.join(", ")}` }
  })

/** A comma list of at most `max` values (empty items dropped). */
export const List = (description = "", max = 100) =>
  param<ReadonlyArray<string>>(
    { type: "string" },
    `${description}${description ? "; " : ""}comma list of at most ${figure(max)}`,
    (s) => {
      const items = s
        .split(",")
        .map((x) => x.trim())
        .filter((x) => x !== "")
      return items.length > max ? { wanted: `lists ${items.length} values; at most ${max} are allowed` } : { ok: items }
    },
    (a) => a.join(",")
  )

const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/

/** RFC 3339 date-time, or a bare `YYYY-MM-DD` meaning UTC midnight (SPEC conventions); answered as ISO UTC. */
export const Instant = (description = "") =>
  param<string>(
    { type: "string", description: "RFC 3339 date-time or YYYY-MM-DD (UTC midnight)" },
    description,
    (s) => {
      const ms = DATE.test(s) ? Date.parse(`${s}T00:00:00Z`) : DATE_TIME.test(s) ? Date.parse(s) : Number.NaN
      return Number.isFinite(ms)
        ? { ok: new Date(ms).toISOString() }
        : { wanted: "must be an RFC 3339 date-time or YYYY-MM-DD" }
    }
  )

export interface Bbox {
  readonly minLng: number
  readonly minLat: number
  readonly maxLng: number
  readonly maxLat: number
}

export const BboxParam = param<Bbox>(
  { type: "string", pattern: "^[^,]+,[^,]+,[^,]+,[^,]+$" },
  "minLng,minLat,maxLng,maxLat",
  (s) => {
    const parts = s.split(",").map((x) => x.trim())
    const n = parts.map(Number)
    if (parts.length !== 4 || parts.some((p) => p === "" || !NUM.test(p)) || n.some((x) => !Number.isFinite(x)))
      return { wanted: "must be minLng,minLat,maxLng,maxLat" }
    const [minLng, minLat, maxLng, maxLat] = n
    if (Math.abs(minLng) > 180 || Math.abs(maxLng) > 180 || Math.abs(minLat) > 90 || Math.abs(maxLat) > 90) {
      return { wanted: "coordinates are out of range (longitude ±180, latitude ±90)" }
    }
    if (minLng > maxLng || minLat > maxLat) return { wanted: "minimums must not exceed maximums" }
    return { ok: { minLng, minLat, maxLng, maxLat } }
  },
  (b) => [b.minLng, b.minLat, b.maxLng, b.maxLat].join(",")
)

/** Page size against a cap read from `cap`: a whole number from 1, clamped to the cap. */
const limitUpTo = <R>(cap: Effect.Effect<number, never, R>, fixedCap: number | undefined) =>
  Schema.transformOrFail(Schema.String, Schema.Number, {
    strict: true,
    decode: (s, _, ast) =>
      Effect.flatMap(cap, (max) =>
        !INT.test(s) || Number(s) < 1
          ? Effect.fail(
              new ParseResult.Type(
                ast,
                s,
                `must be a whole number from 1 to ${figure(max)} (${fixedCap ? "this endpoint's" : "your plan's"} cap; a larger value is clamped to it)`
              )
            )
          : Effect.succeed(Math.min(Number(s), max))
      ),
    encode: (n) => ParseResult.succeed(String(n))
  }).annotations({
    jsonSchema: { type: "integer", minimum: 1, ...(fixedCap ? { maximum: fixedCap } : {}) },
    description: fixedCap
      ? `Clamped to ${figure(fixedCap)}`
      : "Default 100; clamped to the plan's cap (see /api/v1/plans)"
  })

/**
 * Page size: a whole number from 1; above the cap it is clamped (SPEC §8). The cap is the
 * caller's plan's `max_limit` (a keyed route's) unless the endpoint has its own, so `limit=0`
 * names the real cap.
 */
export function Limit(fixedCap: number): Schema.Schema<number, string, never>
export function Limit(): Schema.Schema<number, string, RequestAuth>
export function Limit(fixedCap?: number): Schema.Schema<number, string, RequestAuth> {
  return fixedCap !== undefined
    ? limitUpTo(Effect.succeed(fixedCap), fixedCap)
    : limitUpTo(
        Effect.map(RequestAuth, (a) => a.plan.max_limit),
        undefined
      )
}

/** The offset cap after the 2026-10-06 change (SPEC §8, §9.4); deeper paging uses cursor. */
export const OFFSET_CAP = 10_000

export const Offset = param<number>(
  { type: "integer", minimum: 0, maximum: OFFSET_CAP },
  "At most 10,000; exclusive with cursor; page deeper with cursor",
  (s) =>
    INT.test(s) && Number(s) >= 0 && Number(s) <= OFFSET_CAP
      ? { ok: Number(s) }
      : { wanted: `must be a whole number from 0 to ${figure(OFFSET_CAP)}; page deeper with cursor` }
)

export const Cursor = Text(
  "next_cursor of the previous page; opaque, signed, bound to the filters; exclusive with offset",
  512
)

export interface Circle {
  readonly lat: number
  readonly lng: number
  readonly radiusKm: number
}

/** The radius-search fields of a query Schema; `circleOf` checks they come together. */
export const circleFields = (maxRadiusKm: number) => ({
  lat: Schema.optional(Num(-90, 90, "Radius centre latitude")),
  lng: Schema.optional(Num(-180, 180, "Radius centre longitude")),
  radius_km: Schema.optional(Num(0, maxRadiusKm, `Default 50, at most ${figure(maxRadiusKm)}`, true))
})

export const circleOf = (q: {
  readonly lat?: number | undefined
  readonly lng?: number | undefined
  readonly radius_km?: number | undefined
}) => {
  if (q.lat === undefined && q.lng === undefined) {
    return q.radius_km !== undefined
      ? Effect.fail(new BadRequest({ message: "radius_km needs lat and lng" }))
      : Effect.succeed(undefined)
  }
  if (q.lat === undefined || q.lng === undefined)
    return Effect.fail(new BadRequest({ message: "lat and lng go together; send both" }))
  return Effect.succeed<Circle | undefined>({ lat: q.lat, lng: q.lng, radiusKm: q.radius_km ?? 50 })
}
