import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { RoutingConfig } from "../RoutingConfig.js"
import { trimOldest } from "../../cache/trimOldest.js"
import { makeInterner } from "../../cache/intern.js"

/*
 * What routes read along themselves (events and feature candidates per res-7 cell, full feature
 * rows), kept by an API worker from one route to the next. A kept read stays good while no
 * change has marked its res-5 cell (`cell_marks`, stamped by the materializer in the writing
 * transaction) with a transaction at or after the xmin of the look taken before the read.
 *
 * Each route first looks at the marks made since the worker's last look, in the same statement
 * as its snapshot's xmin (what the request read ahead before). So a route read through this
 * store sees every change committed before its look, as a route that reads everything itself
 * sees every change committed before its reads, and the xmin it saves for a refetch holds as it
 * did.
 *
 * The marks known are complete for transactions from `validFrom` on: a look asks for marks from
 * the newest xmin whose marks are all known (`seen`), so together the looks cover every
 * transaction since the first. Reads older than `validFrom` are not used. A look that finds more
 * marks than it takes (a worker idle for long, a transaction held open that holds xmin back)
 * starts the store over from its own xmin.
 */

/** most marks a look takes; more: the store starts over */
export const MARKS_PER_LOOK = 10_000
/** most res-5 cells whose marks are held; more: the store starts over */
const MAX_MARKS = 200_000

export interface HazardCellLimits {
  /** most cells held, per kind (events; feature candidates of one set of types) */
  readonly cells: number
  /** most full feature rows held */
  readonly features: number
}

/** The limits for a number of cells: full feature rows in the default's proportion (a fifth). */
export const hazardCellLimits = (cells: number): HazardCellLimits => ({ cells, features: Math.round(cells / 5) })

/**
 * About 100 MB of heap a worker at bench:routing's density (89 MB measured), where 1,000 routes reach them
 * (docs/api/routing.md); ROUTE_READS_KEPT_CELLS's default.
 */
export const DEFAULT_HAZARD_CELL_LIMITS: HazardCellLimits = hazardCellLimits(150_000)

/**
 * One kind's kept reads as slots in columns, not an object per read: the store holds a few
 * hundred thousand reads for a worker's life, and a full collection marks every object it holds
 * (docs/BENCHMARKS.md). The key map's order is the reads' age (oldest first).
 */
interface KindReads {
  readonly slotOf: Map<string, number>
  readonly values: Array<unknown>
  /** the xmin of the look taken before the read */
  readonly readXmin: Array<number>
  /** the res-5 cell whose marks judge it */
  readonly cell5: Array<string>
  readonly free: Array<number>
}

const noReads = (): KindReads => ({ slotOf: new Map(), values: [], readXmin: [], cell5: [], free: [] })

/** One request's view of the store: reads judged, and new ones kept, as of its look. */
export interface HazardCellView {
  readonly get: <A>(kind: string, key: string) => A | undefined
  readonly put: <A>(kind: string, key: string, value: A, cell5: string) => void
}

/** A store that keeps nothing (ROUTE_READS_KEPT=false): its looks read the xmin alone. */
export const KEEP_NOTHING: HazardCellLimits = { cells: 0, features: 0 }

export const makeHazardCellStore = (limits: HazardCellLimits = DEFAULT_HAZARD_CELL_LIMITS) => {
  const keeps = limits.cells > 0 || limits.features > 0
  let validFrom: number | undefined
  let seen: number | undefined
  const marks = new Map<string, number>()
  const kinds = new Map<string, KindReads>()
  const counts = { hits: 0, misses: 0, restarts: 0 }
  /** each res-5 cell's id once: every read kept names one, and a few thousand cover a continent's roads */
  const cell5Of = makeInterner(MAX_MARKS)

  const restart = (xmin: number) => {
    validFrom = xmin
    seen = xmin
    marks.clear()
    kinds.clear()
    counts.restarts++
  }

  /**
   * What a look found: its xmin, the marks it asked for (from `since`, or none on a first look),
   * and whether it took them all.
   */
  const observe = (
    since: number | undefined,
    xmin: number,
    found: ReadonlyArray<readonly [string, number]>,
    complete: boolean
  ) => {
    if (!complete || marks.size + found.length > MAX_MARKS) return restart(xmin)
    for (const [cell, xid] of found) if ((marks.get(cell) ?? -1) < xid) marks.set(cell, xid)
    if (since === undefined) {
      // a first look knows no marks: it only sets where knowing begins, once
      if (seen === undefined) validFrom = seen = xmin
      return
    }
    // the look covered [since, xmin) whole, and since <= seen: the known stretch grows without a gap
    if (seen !== undefined && since <= seen && xmin > seen) seen = xmin
  }

  const valid = (r: KindReads, slot: number) => {
    const readXmin = r.readXmin[slot]
    return validFrom !== undefined && readXmin >= validFrom && (marks.get(r.cell5[slot]) ?? -1) < readXmin
  }

  /** lets the read in a slot go: its value and cell are no longer held */
  const release = (r: KindReads, key: string) => {
    const slot = r.slotOf.get(key)!
    r.slotOf.delete(key)
    r.values[slot] = undefined
    r.cell5[slot] = ""
    r.free.push(slot)
  }

  const view = (readXmin: number): HazardCellView | undefined =>
    !keeps
      ? undefined
      : {
          get: <A>(kind: string, key: string) => {
            const r = kinds.get(kind)
            const slot = r?.slotOf.get(key)
            if (slot !== undefined && valid(r!, slot)) {
              counts.hits++
              return r!.values[slot] as A
            }
            counts.misses++
            return undefined
          },
          put: <A>(kind: string, key: string, value: A, cell5: string) => {
            // read before the store started over, or already marked since: not worth keeping
            if (validFrom === undefined || readXmin < validFrom || (marks.get(cell5) ?? -1) >= readXmin) return
            let r = kinds.get(kind)
            if (r === undefined) kinds.set(kind, (r = noReads()))
            // a read kept again is the newest: its key moves to the end of the map's order
            let slot = r.slotOf.get(key)
            if (slot !== undefined) r.slotOf.delete(key)
            else slot = r.free.pop() ?? r.values.length
            r.slotOf.set(key, slot)
            r.values[slot] = value
            r.readXmin[slot] = readXmin
            r.cell5[slot] = cell5Of(cell5)
            // the oldest read first
            const reads = r
            trimOldest(r.slotOf, kind === "features" ? limits.features : limits.cells, (k) => release(reads, k))
          }
        }

  return {
    /** where the next look asks from: undefined on a first look */
    since: () => (keeps ? seen : undefined),
    observe,
    view,
    stats: () => ({ ...counts, marks: marks.size, held: [...kinds.values()].reduce((n, r) => n + r.slotOf.size, 0) })
  }
}

export type HazardCellStore = ReturnType<typeof makeHazardCellStore>

/** The worker's store of route reads (absent: every route reads all it needs itself). */
export class HazardCells extends Context.Tag("api/HazardCells")<HazardCells, HazardCellStore>() {}

export const HazardCellsLive = Layer.effect(
  HazardCells,
  Effect.map(RoutingConfig, (c) =>
    makeHazardCellStore(c.routeReadsKept ? hazardCellLimits(c.routeReadsKeptCells) : KEEP_NOTHING)
  )
)

/**
 * The oldest transaction that may still be uncommitted, taken before a request reads (any
 * change a request may not have seen was written by this transaction or a later one), and, with
 * a store, the marks made since its last look, in the same snapshot.
 */
export const lookAtMarks = (store: HazardCellStore | undefined) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const since = store?.since()
    // a first look (or a store that keeps nothing) asks for no marks: it knows no reads to judge
    return sql<{ xmin: string; cell: string | null; xid: string | null }>`
      WITH s AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
      SELECT s.xmin::text AS xmin, m.cell::text AS cell, m.xid::text AS xid FROM s
      LEFT JOIN LATERAL (
        SELECT cell, xid FROM cell_marks WHERE ${since !== undefined ? sql`xid >= ${String(since)}::xid8` : sql`false`} LIMIT ${MARKS_PER_LOOK + 1}) m ON true`.pipe(
      Effect.map((rows) => {
        const xmin = rows[0].xmin
        if (store) {
          const found = rows.flatMap((r) =>
            r.cell !== null && r.xid !== null ? [[r.cell, Number(r.xid)] as const] : []
          )
          store.observe(since, Number(xmin), found.slice(0, MARKS_PER_LOOK), found.length <= MARKS_PER_LOOK)
        }
        return xmin
      })
    )
  })
