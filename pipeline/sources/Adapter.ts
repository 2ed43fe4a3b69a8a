import type { FeatureDetail } from "../../shared/sources/featureDetails.js"
import { Either, ParseResult, Schema } from "effect"
import { hash } from "node:crypto"
import { EVENT_TYPES, type EventObservation, type EventType } from "../../shared/domain/Event.js"
import { KNOWN_FEATURE_TYPES } from "../../shared/domain/FeatureGroups.js"
import { compiledGuard } from "../../shared/schema/compiledGuard.js"
import { itemTexts } from "./lib/itemTexts.js"
import { editEvent } from "./lib/editEvent.js"
import { editFeature } from "./lib/editFeature.js"
import { tieWithinFeed } from "./lib/tieWithinFeed.js"
import type { FeatureObservation } from "../../shared/domain/Feature.js"
import type { FuelPriceObservation } from "../../shared/domain/FuelPrice.js"

export interface SourceCredit {
  readonly name: string
  readonly text: string
  readonly url: string | null
  readonly license: string | null
}

export interface DecodeContext {
  readonly source: string
  readonly jurisdiction: string
  readonly polledAt: Date
  /**
   * Fingerprints of the raw records behind the source's active events, by upstream id. A record
   * whose raw fingerprint is unchanged is reported in `unchanged` without being decoded again:
   * in a steady feed most records are, and decoding is the costly part of a poll.
   */
  readonly previousRaw?: ReadonlyMap<string, string>
  /**
   * The text the payload was parsed from (`payload` is `JSON.parse(payloadText)`), when it was one
   * JSON document: records are then fingerprinted by the text they arrived as.
   */
  readonly payloadText?: string
}

export interface Rejection {
  readonly reason: string
  readonly sample: unknown
  /** Upstream id when it could be read: the differ keeps that event alive instead of archiving it. */
  readonly source_id?: string
}

export interface Decoded<A> {
  readonly records: ReadonlyArray<A>
  readonly rejected: ReadonlyArray<Rejection>
  /** upstream ids of records identical to the previous poll's (present, not decoded) */
  readonly unchanged: ReadonlyArray<string>
  /** raw fingerprint of each decoded record, by upstream id */
  readonly rawHashes: ReadonlyMap<string, string>
}

/**
 * What a data engineer writes to add an upstream format: pure, total, no I/O.
 * `decode` returns Left only when the payload as a whole is not this format (the poll then
 * counts as an error and retires nothing); a bad record inside a good payload is a Rejection.
 * `revision` goes up whenever the mapping changes, so unchanged raw records are mapped anew.
 */
export interface EventAdapter {
  readonly id: string
  readonly revision: number
  readonly kind: "events"
  readonly formats: ReadonlyArray<string>
  readonly yields: ReadonlyArray<EventType>
  readonly attribution: SourceCredit | null
  readonly decode: (payload: unknown, ctx: DecodeContext) => Either.Either<Decoded<EventObservation>, string>
}

/** The same contract for a feed of road features (SPEC §2.2): cameras, signs, parking … */
export interface FeatureAdapter {
  readonly id: string
  readonly revision: number
  readonly kind: "features"
  readonly formats: ReadonlyArray<string>
  /** feature types this adapter can yield */
  readonly yields: ReadonlyArray<string>
  readonly attribution: SourceCredit | null
  readonly decode: (payload: unknown, ctx: DecodeContext) => Either.Either<Decoded<FeatureObservation>, string>
  /**
   * Richer data for one feature than its list row, from an upstream detail document: where
   * to get it (from the source's URL and the upstream id) and the properties it adds.
   */
  readonly detail?: FeatureDetail | undefined
}

export type { FeatureDetail } from "../../shared/sources/featureDetails.js"

/** A published price table (SPEC §2.8), one row per area, fuel type and period. */
export interface PriceAdapter {
  readonly id: string
  readonly revision: number
  readonly kind: "prices"
  readonly formats: ReadonlyArray<string>
  readonly yields: ReadonlyArray<string>
  readonly attribution: SourceCredit | null
  readonly decode: (payload: unknown, ctx: DecodeContext) => Either.Either<Decoded<FuelPriceObservation>, string>
}

export type SourceAdapter = EventAdapter | FeatureAdapter | PriceAdapter

const formatError = (e: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(e)
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join(".") : "(record)"}: ${i.message}`)
    .join("; ")
    .slice(0, 500)

export interface RecordFormat<E, R, A> {
  /** the adapter, for its id and revision in raw fingerprints */
  readonly adapter: { readonly id: string; readonly revision: number }
  readonly envelope: Schema.Schema<E, any>
  readonly items: (e: E) => ReadonlyArray<unknown>
  /** a plain schema (no transformations): a valid record is its own decoded value */
  readonly record: Schema.Schema<R, R>
  /** returns a string to reject the record with that reason, or null for a valid record this source does not publish */
  readonly map: (r: R) => (A & { readonly source_id: string }) | string | null
  /** reads the upstream id (as the mapping would set `source_id`) from a raw record */
  readonly idOf: (raw: unknown) => string | undefined
}

/**
 * Goes up whenever the editor (lib/editEvent, lib/editFeature) publishes differently: every record is then decoded
 * anew.
 */
const EDITOR_REVISION = 1

/**
 * Raw fingerprints: a short tag of the adapter and its revision (a new revision decodes every
 * record again) before the hash of the record's JSON text, as it arrived or serialized again.
 * The tag is its own part rather than hashed with the text, which would copy every record's text.
 */
const fingerprinter = (adapter: { id: string; revision: number }) => {
  const tag = hash("sha1", `${adapter.id}@${adapter.revision}/${EDITOR_REVISION}`, "base64url").slice(0, 6)
  return (text: string) => tag + hash("sha1", text, "base64url")
}

export const rawFingerprint = (adapter: { id: string; revision: number }, raw: unknown) =>
  fingerprinter(adapter)(JSON.stringify(raw))

/**
 * Shared record loop: decode the envelope, then each record with its own schema and mapping.
 * Each record is checked with a compiled guard (no copy; answers as `Schema.is` does); `decode`
 * runs only to explain a failure.
 */
export const decodeEach = <E, R, A>(
  payload: unknown,
  ctx: DecodeContext,
  f: RecordFormat<E, R, A>
): Either.Either<Decoded<A>, string> => {
  const env = Schema.decodeUnknownEither(f.envelope)(payload)
  if (Either.isLeft(env)) return Either.left(`payload is not in the expected format: ${formatError(env.left)}`)
  const isRecord = compiledGuard(f.record)
  const decodeRecord = Schema.decodeUnknownEither(f.record)
  const records: Array<A & { readonly source_id: string }> = []
  const rejected: Array<Rejection> = []
  const unchanged: Array<string> = []
  const rawHashes = new Map<string, string>()
  const seen = new Set<string>()
  const items = f.items(env.right)
  const texts = ctx.payloadText !== undefined ? itemTexts(ctx.payloadText, payload, items) : undefined
  const fingerprintOf = fingerprinter(f.adapter)
  const fingerprint = (raw: unknown, k: number) => fingerprintOf(texts ? texts[k]! : JSON.stringify(raw))
  for (let k = 0; k < items.length; k++) {
    const raw = items[k]
    const id = safeId(f.idOf, raw)
    if (id !== undefined && seen.has(id)) {
      // two records with one upstream id would fight over one event: keep the first
      rejected.push({ reason: `duplicate upstream id ${id} in one payload`, sample: raw })
      continue
    }
    if (id !== undefined) seen.add(id)
    const known = id !== undefined && ctx.previousRaw ? fingerprint(raw, k) : undefined
    if (id !== undefined && known !== undefined && ctx.previousRaw?.get(id) === known) {
      unchanged.push(id)
      continue
    }
    if (!isRecord(raw)) {
      const r = decodeRecord(raw)
      rejected.push({
        reason: Either.isLeft(r) ? formatError(r.left) : "record does not match the format",
        sample: raw,
        source_id: id
      })
      continue
    }
    let out: (A & { readonly source_id: string }) | string | null
    try {
      out = f.map(raw)
    } catch (e) {
      out = `mapping failed: ${String(e)}`
    }
    if (out === null) continue
    if (typeof out === "string") {
      rejected.push({ reason: out, sample: raw, source_id: id })
      continue
    }
    records.push(out)
    rawHashes.set(out.source_id, known ?? fingerprint(raw, k))
  }
  return Either.right({ records, rejected, unchanged, rawHashes })
}

const safeId = (idOf: (raw: unknown) => string | undefined, raw: unknown): string | undefined => {
  try {
    return idOf(raw)
  } catch {
    return undefined
  }
}

/** Reads one key of a raw record that may be anything, as a string id. */
export const field =
  (key: string) =>
  (raw: unknown): string | undefined => {
    const v = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>)[key] : undefined
    return typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) ? String(v) : undefined
  }

/** Lenient building blocks for raw-record schemas. */
export const Lenient = {
  optString: Schema.optional(Schema.NullOr(Schema.String)),
  optNumber: Schema.optional(Schema.NullOr(Schema.Number)),
  optBoolean: Schema.optional(Schema.NullOr(Schema.Boolean)),
  id: Schema.Union(Schema.NonEmptyTrimmedString, Schema.Number.pipe(Schema.finite())),
  /** a GeoJSON Point, [lng, lat] */
  point: Schema.Struct({ type: Schema.Literal("Point"), coordinates: Schema.Tuple(Schema.Number, Schema.Number) })
}

type AdapterOf<K extends SourceAdapter["kind"]> = Extract<SourceAdapter, { readonly kind: K }>

/** What an adapter of a kind produces. */
type ObservationOf<K extends SourceAdapter["kind"]> = K extends "events"
  ? EventObservation
  : K extends "features"
    ? FeatureObservation
    : FuelPriceObservation

/**
 * An adapter's records as data: how its payload holds them and how one becomes an observation.
 * `defineAdapter` makes `decode` from it (decodeEach: the envelope, then each record checked,
 * fingerprinted, mapped or rejected).
 */
export interface RecordsSpec<E, R, A> {
  /**
   * Turns a payload that is not JSON (XML read by lib/xml) into what the envelope reads; a Left
   * says the payload is not this format at all. Absent: the envelope reads the payload itself.
   */
  readonly read?: (payload: unknown) => Either.Either<unknown, string>
  readonly envelope: Schema.Schema<E, any>
  readonly items: (e: E) => ReadonlyArray<unknown>
  /** a plain schema (no transformations): a valid record is its own decoded value */
  readonly record: Schema.Schema<R, R>
  /**
   * The mapping for a source of this jurisdiction: a string rejects the record with that
   * reason, null skips a valid record this source does not publish.
   */
  readonly map: (jurisdiction: string) => (r: R) => (A & { readonly source_id: string }) | string | null
  /** reads the upstream id (as the mapping would set `source_id`) from a raw record */
  readonly idOf: (raw: unknown) => string | undefined
}

/** An adapter declared by its records (`records`), the usual way, or by a `decode` of its own. */
export type AdapterSpec<K extends SourceAdapter["kind"], E, R> =
  AdapterOf<K> | (Omit<AdapterOf<K>, "decode"> & { readonly records: RecordsSpec<E, R, ObservationOf<K>> })

/** `decode` made from an adapter's records. */
const decodeRecords =
  <E, R, A>(adapter: { readonly id: string; readonly revision: number }, spec: RecordsSpec<E, R, A>) =>
  (payload: unknown, ctx: DecodeContext): Either.Either<Decoded<A>, string> => {
    const read = spec.read ? spec.read(payload) : Either.right(payload)
    if (Either.isLeft(read)) return Either.left(read.left)
    return decodeEach(read.right, ctx, {
      adapter,
      envelope: spec.envelope,
      items: spec.items,
      record: spec.record,
      map: spec.map(ctx.jurisdiction),
      idOf: spec.idOf
    })
  }

export class AdapterDefinitionError extends Error {}

/**
 * The one way to declare an adapter of any kind: `defineAdapter({ kind: "events" | "features" |
 * "prices", …, records: { … } })`. The kind fixes the observation type the mapping must produce;
 * the declaration is checked when the module loads (an id the catalogue can name, a revision, at
 * least one format, yields in the domain's vocabulary), so a mistake fails at startup and in the
 * shared adapter suite, not mid-poll.
 */
export const defineAdapter = <K extends SourceAdapter["kind"], E = unknown, R = unknown>(
  declared: AdapterSpec<K, E, R>
): AdapterOf<K> => {
  const spec = (
    "records" in declared
      ? (() => {
          const { records, ...rest } = declared
          return { ...rest, decode: decodeRecords({ id: rest.id, revision: rest.revision }, records) }
        })()
      : declared
  ) as AdapterOf<K>
  const fail = (why: string) => {
    throw new AdapterDefinitionError(`adapter ${JSON.stringify(spec.id)}: ${why}`)
  }
  if (!/^[a-z][a-z0-9_]{1,63}$/.test(spec.id)) fail("id must be lower snake case (a-z, 0-9, _)")
  if (!Number.isInteger(spec.revision) || spec.revision < 1) fail("revision must be a whole number from 1")
  if (spec.formats.length === 0) fail("name at least one upstream format")
  if (spec.yields.length === 0) fail("yields must name what it produces")
  const vocabulary: ReadonlyArray<string> | null =
    spec.kind === "events" ? EVENT_TYPES : spec.kind === "features" ? KNOWN_FEATURE_TYPES : null
  const unknown = vocabulary ? spec.yields.filter((y) => !vocabulary.includes(y)) : []
  if (unknown.length > 0) fail(`yields ${unknown.join(", ")}, outside the ${spec.kind} vocabulary`)
  return edited(spec)
}

/**
 * Every event and feature an adapter decodes passes the one editor on its way out (clean text,
 * no placeholders, codes in words, quality flags), so no adapter patches its own text.
 */
const edited = <K extends SourceAdapter["kind"]>(spec: AdapterOf<K>): AdapterOf<K> => {
  if (spec.kind === "prices") return spec
  const decode = spec.decode as (payload: unknown, ctx: DecodeContext) => Either.Either<Decoded<unknown>, string>
  const edit = (
    spec.kind === "events"
      ? (rs: ReadonlyArray<EventObservation>) => tieWithinFeed(rs.map((r) => editEvent(r).event))
      : (rs: ReadonlyArray<FeatureObservation>) => rs.map((r) => editFeature(r))
  ) as (rs: ReadonlyArray<unknown>) => ReadonlyArray<unknown>
  return {
    ...spec,
    decode: (payload: unknown, ctx: DecodeContext) =>
      Either.map(decode(payload, ctx), (d) => ({ ...d, records: edit(d.records) }))
  } as AdapterOf<K>
}
