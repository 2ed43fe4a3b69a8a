import { Either, Schema } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { diffPoll, type SnapEntry } from "../../pipeline/diff/Differ.js"
import type { Decoded, EventAdapter } from "../../pipeline/sources/Adapter.js"
import { EventObservation } from "../../shared/domain/Event.js"

export const ctx = { source: "fixture", jurisdiction: "XX", polledAt: new Date("2026-11-01T12:00:00Z") }

const root = fileURLToPath(new URL("../..", import.meta.url))
export const SHARED_UPSTREAM = `${root}../shared/fixtures/upstream`
export const sharedAvailable = existsSync(SHARED_UPSTREAM)
export const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as unknown
export const ownFixture = (rel: string) => readJson(`${root}test/fixtures/${rel}`)

export const decodeOk = (adapter: EventAdapter, payload: unknown): Decoded<EventObservation> => {
  const r = adapter.decode(payload, ctx)
  if (Either.isLeft(r)) throw new Error(`payload refused: ${r.left}`)
  return r.right
}

const validate = Schema.validateEither(EventObservation)

/**
 * What every event adapter must show on a payload: it decodes, every record is a valid
 * observation, ids are unique and stable, decoding the same payload twice gives zero changes,
 * and `rejected` malformed records are quarantined with a reason (not dropped, not half-parsed).
 */
export const adapterSuite = (
  adapter: EventAdapter,
  name: string,
  load: () => unknown,
  expected: { records: number; rejected: number; skip?: boolean }
) => {
  describe.skipIf(expected.skip ?? false)(`${adapter.id} adapter on ${name}`, () => {
    it("decodes every good record into a valid observation", () => {
      const d = decodeOk(adapter, load())
      expect(d.records).toHaveLength(expected.records)
      for (const r of d.records) expect(Either.isRight(validate(r)), JSON.stringify(r).slice(0, 300)).toBe(true)
    })
    it("gives unique, stable upstream ids", () => {
      const a = decodeOk(adapter, load()).records.map((r) => r.source_id)
      const b = decodeOk(adapter, load()).records.map((r) => r.source_id)
      expect(new Set(a).size).toBe(a.length)
      expect(b).toEqual(a)
    })
    it("yields zero changes when the same payload is polled twice", () => {
      const first = diffPoll({ source: "fixture", polledAt: ctx.polledAt, now: ctx.polledAt, records: decodeOk(adapter, load()).records, presentIds: [], prev: new Map() })
      const prev = new Map<string, SnapEntry>(first.upserts)
      const later = new Date(ctx.polledAt.getTime() + 60_000)
      const second = diffPoll({ source: "fixture", polledAt: later, now: later, records: decodeOk(adapter, load()).records, presentIds: [], prev })
      expect(second.changes).toHaveLength(0)
    })
    it("skips decoding records whose raw fingerprint is unchanged, and still yields zero changes", () => {
      const d1 = decodeOk(adapter, load())
      const first = diffPoll({ source: "fixture", polledAt: ctx.polledAt, now: ctx.polledAt, records: d1.records, rawHashes: d1.rawHashes, presentIds: [], prev: new Map() })
      const prev = new Map<string, SnapEntry>(first.upserts)
      const previousRaw = new Map([...prev].flatMap(([k, e]) => (e.r ? [[k, e.r] as const] : [])))
      const r2 = adapter.decode(load(), { ...ctx, previousRaw })
      if (Either.isLeft(r2)) throw new Error(r2.left)
      expect(r2.right.records).toHaveLength(d1.records.filter((o) => o.status === "active").length === d1.records.length ? 0 : d1.records.length - previousRaw.size)
      expect(r2.right.unchanged.length).toBe(previousRaw.size)
      const later = new Date(ctx.polledAt.getTime() + 60_000)
      const second = diffPoll({ source: "fixture", polledAt: later, now: later, records: r2.right.records, rawHashes: r2.right.rawHashes, presentIds: r2.right.unchanged, prev })
      expect(second.changes).toHaveLength(0)
    })
    it(`quarantines ${expected.rejected} malformed record(s) with a reason`, () => {
      const d = decodeOk(adapter, load())
      expect(d.rejected).toHaveLength(expected.rejected)
      for (const r of d.rejected) {
        expect(r.reason.length).toBeGreaterThan(3)
        expect(r.sample).toBeDefined()
      }
    })
    it("refuses a payload that is not its format as a whole", () => {
      expect(Either.isLeft(adapter.decode({ unrelated: true }, ctx)) || decodeOk(adapter, { unrelated: true }).records.length === 0).toBe(true)
      expect(Either.isLeft(adapter.decode("<xml/>", ctx))).toBe(true)
    })
  })
}

export const sharedNote = () => {
  if (!sharedAvailable) console.warn(`skipping real upstream payload tests: ${SHARED_UPSTREAM} is absent`)
}
