import type { DiffInput, RecordKind } from "./kinds.js"
import type { SnapshotDelta } from "./SnapshotStore.js"

/**
 * One poll's diff as a sequence of deltas, made one at a time as the caller commits them: the
 * records in slices of `size`, then one pass for what the poll no longer has. A large feed then
 * never holds every change and snapshot entry at once, only one slice's.
 *
 * Every call reads the snapshot as the poll found it: a poll holds each upstream id once, so no
 * slice meets an entry an earlier slice changed, and the last pass is told which ids the slices
 * wrote entries for (`handled`: neither retired nor, as tombstones, pruned). A run cut short
 * leaves the snapshot consistent with what was committed; the next poll finds the rest, and only
 * the last pass retires anything.
 */
export function* diffSlices<S, O extends { readonly source_id: string }>(
  kind: RecordKind<S, O>,
  input: DiffInput<S, O>,
  size: number
): Generator<SnapshotDelta<S>, void, unknown> {
  const { records } = input
  if (records.length <= size) {
    yield kind.diff(input)
    return
  }
  const decoded = new Set<string>()
  for (const r of records) decoded.add(r.source_id)
  // the adapters' record loop keeps the first of a repeated id; slices could not see each other's
  if (decoded.size !== records.length) throw new Error("diffSlices: the poll holds an upstream id more than once")
  const upserted = new Set<string>()
  for (let from = 0; from < records.length; from += size) {
    const delta = kind.diff({
      ...input,
      records: records.slice(from, from + size),
      presentIds: [],
      missing: { skip: true }
    })
    yield delta
    for (const id of delta.upserts.keys()) upserted.add(id)
    for (const id of delta.present ?? []) upserted.add(id)
  }
  yield kind.diff({ ...input, records: [], missing: { skip: false, handled: upserted } })
}
