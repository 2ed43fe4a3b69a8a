import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { diffSlices } from "../../../pipeline/diff/diffSlices.js"
import { type SnapEntry, TOMBSTONE_MS } from "../../../pipeline/diff/Differ.js"
import { type DiffInput, eventKind, featureKind, type RecordKind } from "../../../pipeline/diff/kinds.js"
import type { SnapshotDelta } from "../../../pipeline/diff/SnapshotStore.js"
import type { EventObservation, Severity } from "../../../shared/domain/Event.js"
import { feature } from "../../support/changes.js"

const t0 = Date.UTC(2026, 10, 1)

const obs = (id: string, severity: Severity, archived: boolean): EventObservation => ({
  source_id: id,
  jurisdiction: "NY",
  type: "incident",
  sub_type: null,
  cause: null,
  severity,
  status: archived ? "archived" : "active",
  title: `event ${id}`,
  description: "",
  latitude: 40,
  longitude: -74,
  geometry: null,
  affected_roads: ["I-87"],
  direction: null,
  lanes_affected: null,
  start_time: null,
  end_time: null,
  estimated_start_time: null,
  estimated_end_time: null,
  source_created_at: null,
  source_updated_at: null,
  road_class: null,
  metadata: {}
})

/** Applies deltas in order, as commits do: the snapshot after them and every change they carried. */
const applyAll = <S>(prev: ReadonlyMap<string, S>, deltas: Iterable<SnapshotDelta<S>>) => {
  const snap = new Map(prev)
  const changes: Array<unknown> = []
  for (const d of deltas) {
    changes.push(...d.changes)
    for (const [k, v] of d.upserts) snap.set(k, v)
    for (const k of d.removals) snap.delete(k)
  }
  return { snap, changes }
}

/** One record of a poll: its id, whether it is decoded, unchanged (presentIds) or missing, and its content. */
const pollArb = fc.array(
  fc.record({
    id: fc.integer({ min: 0, max: 30 }),
    how: fc.constantFrom("decoded", "unchanged", "missing"),
    sev: fc.constantFrom<Severity>("minor", "major"),
    archived: fc.boolean()
  }),
  { maxLength: 40 }
)

/**
 * Runs a history of polls with the whole-poll differ, then diffs one more poll both ways — whole
 * and in slices of `size` — from the same snapshot: the changes and the snapshot after must match.
 */
const property = <S, O extends { readonly source_id: string }>(
  kind: RecordKind<S, O>,
  make: (id: string, sev: Severity, archived: boolean) => O
) =>
  fc.property(
    fc.array(pollArb, { minLength: 1, maxLength: 4 }),
    fc.integer({ min: 1, max: 6 }),
    fc.constantFrom(0.4, 1.1),
    // entries rewritten every poll, or only the changed ones (a seen refresh longer than the history)
    fc.constantFrom(0, 100 * TOMBSTONE_MS),
    (history, size, gap, seenRefreshMs) => {
      let prev = new Map<string, S>()
      const inputOf = (poll: (typeof history)[number], i: number): DiffInput<S, O> => {
        // polls far enough apart that tombstones come due for pruning (gap 1.1) or only some do
        const at = new Date(t0 + i * gap * TOMBSTONE_MS)
        const seen = new Set<string>()
        const records: Array<O> = []
        const presentIds: Array<string> = []
        // raw fingerprints go into the snapshot entries, so a slice that lost or mixed them up
        // would leave a different snapshot
        const rawHashes = new Map<string, string>()
        for (const r of poll) {
          const id = `r${r.id}`
          if (seen.has(id) || r.how === "missing") continue
          seen.add(id)
          if (r.how === "decoded") {
            records.push(make(id, r.sev, r.archived))
            rawHashes.set(id, `fp:${id}:${i}`)
          } else if (prev.has(id)) presentIds.push(id)
        }
        return { source: "s", polledAt: at, now: at, records, presentIds, rawHashes, prev, seenRefreshMs }
      }
      for (const [i, poll] of history.slice(0, -1).entries()) prev = applyAll(prev, [kind.diff(inputOf(poll, i))]).snap
      const last = inputOf(history.at(-1)!, history.length - 1)
      const whole = applyAll(prev, [kind.diff(last)])
      const sliced = applyAll(prev, diffSlices(kind, last, size))
      const byId = (cs: Array<unknown>) => [...cs].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
      expect(byId(sliced.changes)).toEqual(byId(whole.changes))
      expect(new Map([...sliced.snap].sort())).toEqual(new Map([...whole.snap].sort()))
    }
  )

describe("diffSlices", () => {
  it("changes and leaves the event snapshot exactly as the whole-poll diff does, for any slice size", () => {
    fc.assert(property(eventKind, obs), { numRuns: 1500 })
  })

  it("does the same for features (deactivation of what went missing included)", () => {
    fc.assert(
      property(featureKind, (id, sev, archived) => feature(id, { is_active: !archived, name: `cam ${id} ${sev}` })),
      { numRuns: 300 }
    )
  })

  it("keeps a record that comes back, in a later slice, on the poll that prunes its tombstone", () => {
    const at = (ms: number) => new Date(t0 + ms)
    const base = { source: "s", presentIds: [], rawHashes: new Map<string, string>() }
    const s1 = applyAll(new Map(), [
      eventKind.diff({
        ...base,
        polledAt: at(0),
        now: at(0),
        records: [obs("a", "minor", false), obs("b", "minor", false)],
        prev: new Map()
      })
    ]).snap
    const s2 = applyAll(s1, [
      eventKind.diff({ ...base, polledAt: at(60_000), now: at(60_000), records: [obs("a", "minor", false)], prev: s1 })
    ]).snap
    const late = at(60_000 + TOMBSTONE_MS + 1)
    const back = {
      ...base,
      polledAt: late,
      now: late,
      records: [obs("a", "minor", false), obs("c", "minor", false), obs("b", "minor", false)],
      prev: s2
    }
    const after = applyAll(s2, diffSlices(eventKind, back, 1)).snap
    expect(after.get("b")?.st).toBe("active")
  })

  it("refuses, before any slice, a poll that holds an upstream id twice (slices read the snapshot as the poll found it)", () => {
    const twice = [obs("a", "minor", false), obs("b", "minor", false), obs("a", "major", false)]
    const input: DiffInput<SnapEntry, EventObservation> = {
      source: "s",
      polledAt: new Date(t0),
      now: new Date(t0),
      records: twice,
      presentIds: [],
      rawHashes: new Map(),
      prev: new Map()
    }
    expect(() => diffSlices(eventKind, input, 1).next()).toThrow(/more than once/)
  })

  it("makes no slices for a poll that fits in one", () => {
    const input: DiffInput<SnapEntry, EventObservation> = {
      source: "s",
      polledAt: new Date(t0),
      now: new Date(t0),
      records: [obs("a", "minor", false)],
      presentIds: [],
      rawHashes: new Map(),
      prev: new Map()
    }
    expect([...diffSlices(eventKind, input, 5)]).toHaveLength(1)
  })

  it("leaves a recently seen record's entry as it was (not retired), and moves its seen once the refresh is due", () => {
    const at = (ms: number) => new Date(t0 + ms)
    const base = { source: "s", rawHashes: new Map<string, string>(), seenRefreshMs: 180_000 }
    const first = { ...base, presentIds: [], polledAt: at(0), now: at(0), prev: new Map<string, SnapEntry>() }
    const s1 = applyAll(new Map(), [
      eventKind.diff({
        ...first,
        records: [obs("a", "minor", false), obs("b", "minor", false), obs("c", "minor", false)]
      })
    ]).snap
    // a minute on: a unchanged (decoded), b unchanged (skipped by its fingerprint), c gone
    const poll = (ms: number, prev: ReadonlyMap<string, SnapEntry>) => ({
      ...base,
      polledAt: at(ms),
      now: at(ms),
      records: [obs("a", "minor", false)],
      presentIds: ["b"],
      prev
    })
    for (const size of [1, 5]) {
      const deltas = [...diffSlices(eventKind, poll(60_000, s1), size)]
      const written = new Set(deltas.flatMap((d) => [...d.upserts.keys()]))
      expect(written, `slices of ${size}`).toEqual(new Set(["c"]))
      const after = applyAll(s1, deltas)
      expect(after.snap.get("a")).toEqual(s1.get("a"))
      expect(after.snap.get("b")).toEqual(s1.get("b"))
      expect(after.snap.get("c")?.st).toBe("archived")
    }
    // three minutes after they were last written: both are written again, seen moved
    const s2 = applyAll(s1, diffSlices(eventKind, poll(60_000, s1), 5)).snap
    const later = applyAll(s2, diffSlices(eventKind, poll(180_000, s2), 5)).snap
    expect(later.get("a")?.seen).toBe(t0 + 180_000)
    expect(later.get("b")?.seen).toBe(t0 + 180_000)
  })
})
