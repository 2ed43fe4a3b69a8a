import { Either, ParseResult, Schema } from "effect"
import type { EventObservation, EventType } from "../../shared/domain/Event.js"

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
}

/**
 * What a data engineer writes to add an upstream format: pure, total, no I/O.
 * `decode` returns Left only when the payload as a whole is not this format (the poll then
 * counts as an error and retires nothing); a bad record inside a good payload is a Rejection.
 */
export interface EventAdapter {
  readonly id: string
  readonly kind: "events"
  readonly formats: ReadonlyArray<string>
  readonly yields: ReadonlyArray<EventType>
  readonly attribution: SourceCredit | null
  readonly decode: (payload: unknown, ctx: DecodeContext) => Either.Either<Decoded<EventObservation>, string>
}

const formatError = (e: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(e)
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join(".") : "(record)"}: ${i.message}`)
    .join("; ")
    .slice(0, 500)

/**
 * Shared record loop: decode the envelope, then each record with its own schema and mapping.
 * A mapping returns a string to reject the record with that reason.
 */
export const decodeEach = <E, R, A>(
  payload: unknown,
  envelope: Schema.Schema<E, any>,
  items: (e: E) => ReadonlyArray<unknown>,
  record: Schema.Schema<R, any>,
  map: (r: R) => A | string,
  idOf: (raw: unknown) => unknown = () => undefined
): Either.Either<Decoded<A>, string> => {
  const env = Schema.decodeUnknownEither(envelope)(payload)
  if (Either.isLeft(env)) return Either.left(`payload is not in the expected format: ${formatError(env.left)}`)
  const decodeRecord = Schema.decodeUnknownEither(record)
  const records: Array<A> = []
  const rejected: Array<Rejection> = []
  for (const raw of items(env.right)) {
    const r = decodeRecord(raw)
    const id = readId(idOf, raw)
    if (Either.isLeft(r)) {
      rejected.push({ reason: formatError(r.left), sample: raw, source_id: id })
      continue
    }
    let out: A | string
    try {
      out = map(r.right)
    } catch (e) {
      out = `mapping failed: ${String(e)}`
    }
    if (typeof out === "string") rejected.push({ reason: out, sample: raw, source_id: id })
    else records.push(out)
  }
  // two records with one upstream id would fight over one event: keep the first, reject the rest
  return Either.right(dedupe(records, rejected))
}

const readId = (idOf: (raw: unknown) => unknown, raw: unknown): string | undefined => {
  try {
    const id = idOf(raw)
    return typeof id === "string" || typeof id === "number" ? String(id) : undefined
  } catch {
    return undefined
  }
}

/** Reads one key of a raw record that may be anything. */
export const field = (key: string) => (raw: unknown): unknown =>
  typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>)[key] : undefined

const dedupe = <A>(records: Array<A>, rejected: Array<Rejection>): Decoded<A> => {
  const seen = new Set<string>()
  const kept: Array<A> = []
  for (const r of records) {
    const id = (r as { source_id?: string }).source_id
    if (id !== undefined && seen.has(id)) {
      rejected.push({ reason: `duplicate upstream id ${id} in one payload`, sample: r })
      continue
    }
    if (id !== undefined) seen.add(id)
    kept.push(r)
  }
  return { records: kept, rejected }
}

/** Lenient building blocks for raw-record schemas. */
export const Lenient = {
  optString: Schema.optional(Schema.NullOr(Schema.String)),
  optNumber: Schema.optional(Schema.NullOr(Schema.Number)),
  optBoolean: Schema.optional(Schema.NullOr(Schema.Boolean)),
  id: Schema.Union(Schema.NonEmptyTrimmedString, Schema.Number.pipe(Schema.finite()))
}
