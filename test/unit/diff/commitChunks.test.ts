import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { commitChunks, type SnapshotDelta } from "../../../pipeline/diff/SnapshotStore.js"

/** A delta as a differ makes it: at most one change per record, some entries without a change, some removals. */
const deltaArb = fc
  .record({
    ids: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 60 }),
    changed: fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
    strays: fc.array(fc.string({ minLength: 7, maxLength: 8 }), { maxLength: 3 }),
    removals: fc.uniqueArray(fc.string({ minLength: 9, maxLength: 10 }), { maxLength: 4 }),
    size: fc.integer({ min: 1, max: 25 })
  })
  .map(({ ids, changed, strays, removals, size }) => {
    const upserts = new Map(ids.map((id) => [id, { seen: 1 }] as const))
    const changes = [
      ...ids.flatMap((id, i) => (changed[i] ? [{ source_id: id, n: i }] : [])),
      ...strays.map((id) => ({ source_id: id, n: -1 }))
    ]
    return { delta: { changes, upserts, removals } as SnapshotDelta<{ seen: number }>, size }
  })

describe("commitChunks", () => {
  it("keeps every change in the chunk of its record's entry, loses and repeats nothing, and bounds every chunk", () => {
    fc.assert(
      fc.property(deltaArb, ({ delta, size }) => {
        const chunks = commitChunks(delta, size)
        expect(chunks.length).toBeGreaterThan(0)
        for (const c of chunks) {
          expect(c.upserts.size).toBeLessThanOrEqual(size)
          for (const ch of c.changes as Array<{ source_id: string }>) {
            // a change with an entry travels with it; a stray one (no entry) waits for the last chunk
            if (delta.upserts.has(ch.source_id)) expect(c.upserts.has(ch.source_id)).toBe(true)
            else expect(c).toBe(chunks.at(-1))
          }
        }
        const allChanges = chunks.flatMap((c) => c.changes as Array<unknown>)
        expect(new Set(allChanges)).toEqual(new Set(delta.changes))
        expect(allChanges).toHaveLength(delta.changes.length)
        expect(chunks.flatMap((c) => [...c.upserts.keys()])).toEqual([...delta.upserts.keys()])
        expect(chunks.at(-1)!.removals).toEqual(delta.removals)
        expect(chunks.slice(0, -1).every((c) => c.removals.length === 0)).toBe(true)
      })
    )
  })

  it("makes one empty chunk of an empty delta, so the snapshot is still marked as present", () => {
    const chunks = commitChunks({ changes: [], upserts: new Map(), removals: [] }, 10)
    expect(chunks).toHaveLength(1)
    expect(chunks[0].changes).toHaveLength(0)
  })
})
