/**
 * A poll diffed in slices (diffSlices) calls the differ once per slice of records with
 * `{ skip: true }`: a record absent from one slice is not missing from the poll. The last call has
 * no records and passes the ids the slices wrote entries for as `handled`; only it retires what is
 * missing. Without it, a call is the whole poll.
 */
export type MissingPass = { readonly skip: true } | { readonly skip: false; readonly handled: ReadonlySet<string> }

const NONE: ReadonlySet<string> = new Set()

/**
 * What one differ call does about the snapshot's records it was not given: "skip" (a slice:
 * nothing, not even tombstone pruning), or retire those neither present nor `handled` — `retire`
 * is false when the poll held nothing at all, since an empty poll retires nothing (a last pass
 * after slices always follows records).
 */
export const missingPassOf = (input: {
  readonly records: ReadonlyArray<unknown>
  readonly presentIds: ReadonlyArray<string>
  readonly missing?: MissingPass | undefined
}): "skip" | { readonly retire: boolean; readonly handled: ReadonlySet<string> } => {
  if (input.missing?.skip) return "skip"
  const handled = input.missing?.handled
  return {
    retire: input.records.length > 0 || input.presentIds.length > 0 || handled !== undefined,
    handled: handled ?? NONE
  }
}
