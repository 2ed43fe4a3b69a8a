import { Either, Schema } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { eventKind, featureKind, priceKind, type RecordKind } from "../../pipeline/diff/kinds.js"
import type { Decoded, SourceAdapter } from "../../pipeline/sources/Adapter.js"
import { EventObservation } from "../../shared/domain/Event.js"
import { FeatureObservation } from "../../shared/domain/Feature.js"
import { FuelPriceObservation } from "../../shared/domain/FuelPrice.js"
import { looksLikeId } from "../../shared/domain/eventTitle.js"
import { interpretedGuards } from "../../shared/schema/compiledGuard.js"

export const ctx = { source: "fixture", jurisdiction: "XX", polledAt: new Date("2026-11-01T12:00:00Z") }

const root = fileURLToPath(new URL("../..", import.meta.url))
export const SHARED_UPSTREAM = `${root}../shared/fixtures/upstream`
export const sharedAvailable = existsSync(SHARED_UPSTREAM)
export const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as unknown
/** A payload as the fetcher hands it over: JSON parsed, XML as its text. */
export const readPayload = (path: string): unknown =>
  path.endsWith(".xml") ? readFileSync(path, "utf8") : readJson(path)
export const ownFixture = (rel: string) => readPayload(`${root}test/fixtures/${rel}`)

type Observation = { readonly source_id: string }

export const decodeOk = <A extends SourceAdapter>(
  adapter: A,
  payload: unknown,
  extra: { previousRaw?: ReadonlyMap<string, string>; payloadText?: string } = {}
) => {
  const r = adapter.decode(payload, { ...ctx, ...extra }) as Either.Either<Decoded<Observation>, string>
  if (Either.isLeft(r)) throw new Error(`payload refused: ${r.left}`)
  return r.right as unknown as A extends { kind: "events" }
    ? Decoded<EventObservation>
    : A extends { kind: "features" }
      ? Decoded<FeatureObservation>
      : Decoded<FuelPriceObservation>
}

const validator = (adapter: SourceAdapter): ((u: unknown) => Either.Either<unknown, unknown>) =>
  adapter.kind === "events"
    ? Schema.validateEither(EventObservation)
    : adapter.kind === "features"
      ? Schema.validateEither(FeatureObservation)
      : Schema.validateEither(FuelPriceObservation)

const kindOf = (adapter: SourceAdapter) =>
  (adapter.kind === "events"
    ? eventKind
    : adapter.kind === "features"
      ? featureKind
      : priceKind) as unknown as RecordKind<{ r?: string }, Observation>

/**
 * What every adapter must show on a payload: it decodes, every record is a valid observation
 * of its kind, ids are unique and stable, decoding the same payload twice gives zero changes
 * (also through the raw-fingerprint skip), malformed records are quarantined with a reason,
 * and a payload of another format is refused whole.
 */
export const adapterSuite = (
  adapter: SourceAdapter,
  name: string,
  load: () => unknown,
  expected: { records: number; rejected: number; skip?: boolean }
) => {
  const kind = kindOf(adapter)
  const poll = (prev: ReadonlyMap<string, { r?: string }>, d: Decoded<Observation>, at: Date) =>
    kind.diff({
      source: "fixture",
      polledAt: at,
      now: at,
      records: d.records,
      rawHashes: d.rawHashes,
      presentIds: d.unchanged,
      prev
    })
  const later = new Date(ctx.polledAt.getTime() + 60_000)

  describe.skipIf(expected.skip ?? false)(`${adapter.id} adapter on ${name}`, () => {
    it("decodes every good record into a valid observation", () => {
      const d = decodeOk(adapter, load())
      expect(d.records).toHaveLength(expected.records)
      const validate = validator(adapter)
      for (const r of d.records) expect(Either.isRight(validate(r)), JSON.stringify(r).slice(0, 300)).toBe(true)
    })
    it.runIf(adapter.kind === "events")("titles every event in words, never with an upstream identifier", () => {
      for (const r of decodeOk(adapter, load()).records as ReadonlyArray<{ title?: string }>) {
        expect(looksLikeId(r.title ?? ""), `title ${JSON.stringify(r.title)}`).toBe(false)
      }
    })
    it("gives unique, stable upstream ids", () => {
      const a = decodeOk(adapter, load()).records.map((r) => r.source_id)
      const b = decodeOk(adapter, load()).records.map((r) => r.source_id)
      expect(new Set(a).size).toBe(a.length)
      expect(b).toEqual(a)
    })
    it("yields zero changes when the same payload is polled twice", () => {
      const first = poll(new Map(), decodeOk(adapter, load()), ctx.polledAt)
      const second = poll(new Map(first.upserts), { ...decodeOk(adapter, load()), unchanged: [] }, later)
      expect(second.changes).toHaveLength(0)
    })
    it("skips decoding records whose raw fingerprint is unchanged, and still yields zero changes", () => {
      const first = poll(new Map(), decodeOk(adapter, load()), ctx.polledAt)
      const prev = new Map(first.upserts)
      const previousRaw = kind.rawOf(prev)
      const d2 = decodeOk(adapter, load(), { previousRaw })
      expect(d2.unchanged.length).toBe(previousRaw.size)
      expect(d2.records.length + d2.unchanged.length).toBe(expected.records)
      expect(poll(prev, d2, later).changes).toHaveLength(0)
    })
    it("skips records by the text they arrived as, as the fetcher hands a JSON body over, and still yields zero changes", () => {
      const payload = load()
      // laid out otherwise than JSON.stringify would, so the texts are not the records serialized again
      const text = typeof payload === "string" ? undefined : JSON.stringify(payload, null, 2)
      const read = (extra: { previousRaw?: ReadonlyMap<string, string> }) =>
        decodeOk(
          adapter,
          text === undefined ? payload : JSON.parse(text),
          text === undefined ? extra : { ...extra, payloadText: text }
        )
      const prev = new Map(poll(new Map(), read({}), ctx.polledAt).upserts)
      const previousRaw = kind.rawOf(prev)
      const d2 = read({ previousRaw })
      expect(d2.unchanged.length).toBe(previousRaw.size)
      expect(d2.records.length + d2.unchanged.length).toBe(expected.records)
      expect(poll(prev, d2, later).changes).toHaveLength(0)
    })
    it(`quarantines ${expected.rejected} malformed record(s) with a reason`, () => {
      const d = decodeOk(adapter, load())
      expect(d.rejected).toHaveLength(expected.rejected)
      for (const r of d.rejected) {
        expect(r.reason.length).toBeGreaterThan(3)
        expect(r.sample).toBeDefined()
      }
    })
    it("checks its records with a compiled guard, not by interpreting the Schema (the cold poll's cost)", () => {
      decodeOk(adapter, load())
      expect(interpretedGuards()).toEqual([])
    })
    it("refuses a payload that is not its format as a whole", () => {
      const decode = adapter.decode as (p: unknown, c: typeof ctx) => Either.Either<Decoded<Observation>, string>
      const other = decode({ unrelated: true }, ctx)
      expect(Either.isLeft(other) || other.right.records.length === 0).toBe(true)
      expect(Either.isLeft(decode("<xml/>", ctx))).toBe(true)
    })
  })
}

export const sharedNote = () => {
  if (!sharedAvailable) console.warn(`skipping real upstream payload tests: ${SHARED_UPSTREAM} is absent`)
}
