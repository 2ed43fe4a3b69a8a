import type { DiffInput, RecordKind } from "./kinds.js"
import type { SnapshotDelta } from "./SnapshotStore.js"

/**
 * One poll's diff as a sequence of deltas, made one at a time as the caller commits them: the
 * records in slices of `size`, then one pass for what the poll no longer has. A large feed then
 * never holds every change and snapshot entry at once, only one slice's.
 *
 * Each slice is diffed against the snapshot as the slices before it left it, so the last pass
 * sees the current entries (a record that came back in a slice is not a tombstone to prune). A
 * run cut short leaves the snapshot consistent with what was committed; the next poll finds the
 * rest, and only the last pass retires anything.
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
  const prev = new Map(input.prev)
  const decoded = new Set<string>()
  for (let from = 0; from < records.length; from += size) {
    const slice = records.slice(from, from + size)
    for (const r of slice) decoded.add(r.source_id)
    const delta = kind.diff({ ...input, records: slice, presentIds: [], prev, missing: { skip: true } })
    yield delta
    for (const [k, v] of delta.upserts) prev.set(k, v)
  }
  yield kind.diff({ ...input, records: [], prev, missing: { skip: false, alsoPresent: decoded } })
}
