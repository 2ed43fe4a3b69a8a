/**
 * A res-7 cell's feature candidates (the cell index's rows) in the shape a worker keeps them:
 * their ids, and their latitude, longitude and point-ness (1 or 0) three to a candidate in one
 * array of doubles.
 *
 * A row as the driver hands it over is an object, its property array, two strings and two boxed
 * numbers: six objects a candidate, and a worker's store of route reads holds a hundred
 * thousand and more (a heap snapshot at bench:routing: a third of the store's objects). Here a
 * candidate is its id string, and a cell without any (most of them) one shared empty value.
 */
export interface CellCandidates {
  readonly ids: ReadonlyArray<string>
  /** latitude, longitude, 1 for a point (else 0), per candidate in `ids`' order */
  readonly at: ReadonlyArray<number>
}

/** A feature in a route cell as its cell index stores it: enough to test a point feature's distance. */
export interface Candidate {
  readonly feature_id: string
  readonly latitude: number
  readonly longitude: number
  readonly is_point: boolean
}

/** Every cell without candidates holds this one value. */
export const NO_CANDIDATES: CellCandidates = Object.freeze({ ids: Object.freeze([]), at: Object.freeze([]) })

/** A cell index row as the queries return it: `cell_at` is its cell's 1-based place in the cells asked. */
export interface CandidateRow extends Candidate {
  readonly cell_at: number
}

/**
 * The rows of one read, per cell asked (in that order). Counted first, so each cell's arrays are
 * made at their size: an array grown by pushing holds 17 slots for one value.
 */
export const groupCandidates = (cellCount: number, rows: ReadonlyArray<CandidateRow>): Array<CellCandidates> => {
  const counts = new Array<number>(cellCount).fill(0)
  for (const r of rows) counts[r.cell_at - 1]++
  const out = new Array<CellCandidates>(cellCount)
  for (let i = 0; i < cellCount; i++)
    out[i] =
      counts[i] === 0 ? NO_CANDIDATES : { ids: new Array<string>(counts[i]), at: new Array<number>(3 * counts[i]) }
  // counts become each cell's next free place
  counts.fill(0)
  for (const r of rows) {
    const i = r.cell_at - 1
    const c = out[i] as { ids: Array<string>; at: Array<number> }
    const j = counts[i]++
    c.ids[j] = r.feature_id
    c.at[3 * j] = r.latitude
    c.at[3 * j + 1] = r.longitude
    c.at[3 * j + 2] = r.is_point ? 1 : 0
  }
  return out
}

/** Adds each candidate of a cell to `into` by id, unless one with that id is there. */
export const addCandidates = (cell: CellCandidates, into: Map<string, Candidate>) => {
  const { ids, at } = cell
  for (let i = 0; i < ids.length; i++) {
    if (into.has(ids[i])) continue
    into.set(ids[i], {
      feature_id: ids[i],
      latitude: at[3 * i],
      longitude: at[3 * i + 1],
      is_point: at[3 * i + 2] === 1
    })
  }
}
