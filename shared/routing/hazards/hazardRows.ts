import { SqlClient } from "@effect/sql"
import { Chunk, Effect, Option } from "effect"
import { routeCover } from "../../geo/routeCover.js"
import { RoutingEngine, type RouteTrack } from "../engine/RoutingEngine.js"
import { cellsOf, parentAt5 } from "../../geo/h3cells.js"
import type { HazardCellView } from "./HazardCells.js"
import {
  addCandidates,
  type Candidate,
  type CandidateRow,
  type CellCandidates,
  groupCandidates
} from "./cellCandidates.js"
import { makeInterner } from "../../cache/intern.js"

export type Geometry = { type: string; coordinates: unknown }
/** timestamps arrive as Date or as text, depending on the client's type parsing */
export type Stamp = Date | string | null
export type Row = Record<string, unknown> & {
  id: string
  source: string
  source_id: string
  latitude: number
  longitude: number
  geometry: Geometry | null
}
export type EventRow = Row & {
  type: string
  sub_type: string | null
  severity: string
  status: string
  title: string
  description: string
  affected_roads: Array<string>
  start_time: Stamp
  end_time: Stamp
  estimated_start_time: Stamp
  estimated_end_time: Stamp
}
export type FeatureRow = Row & {
  jurisdiction: string
  feature_type: string
  name: string
  description: string
  properties: Record<string, unknown>
  start_time: Stamp
  end_time: Stamp
  estimated_start_time: Stamp
  estimated_end_time: Stamp
}

export type { Candidate } from "./cellCandidates.js"

/** Every event naming no road holds this one array (the driver makes one a row). */
const NO_ROADS: ReadonlyArray<string> = Object.freeze([])

/** Every cell without live events holds this one array. */
const NO_EVENTS: ReadonlyArray<EventRow> = Object.freeze([])

/**
 * The few values an event's vocabulary columns take, one string each: the driver makes a new
 * string per value read, and kept route reads hold tens of thousands of events.
 */
const vocabulary = makeInterner(10_000)
const internEvent = (e: EventRow & { cell_at: number }) => {
  e.source = vocabulary(e.source)
  e.type = vocabulary(e.type)
  e.severity = vocabulary(e.severity)
  e.status = vocabulary(e.status)
  if (e.sub_type !== null) e.sub_type = vocabulary(e.sub_type)
  if (Array.isArray(e.affected_roads) && e.affected_roads.length === 0) e.affected_roads = NO_ROADS as Array<string>
}

/**
 * What judging, the places to stop and the answers read of a feature row; the rest of the API's
 * columns (jurisdiction, road name, direction, flags) would only be parsed and, in kept reads,
 * held for a worker's life.
 */
const ROUTE_FEATURE_COLUMNS = `id, source, source_id, jurisdiction, feature_type, name, description, latitude, longitude, geometry,
  start_time, end_time, estimated_start_time, estimated_end_time, properties, last_updated`

/** A kept feature row's vocabulary columns as one string per value (as `internEvent`). */
const internFeature = (f: FeatureRow) => {
  f.source = vocabulary(f.source)
  f.feature_type = vocabulary(f.feature_type)
  f.jurisdiction = vocabulary(f.jurisdiction)
}

/**
 * Cells per query. The queries probe the cell indexes once per cell (a LATERAL join): a plain
 * `cell = ANY(list)` over thousands of cells makes the planner expect far more rows than there
 * are and scan whole tables. Chunks keep each query's estimated cost under Postgres's JIT
 * threshold, whose compile time would cost more than the query.
 */
const CELLS_PER_QUERY = 1000

/**
 * What lies in a request's route cells (res 7), read once per request: live events and the
 * cell index's feature candidates per cell, full feature rows per id. Reroute rounds and
 * alternatives share most of their cells, so later routes read only the cells they add. With a
 * view of the worker's store (HazardCells.ts, as of the request's look at the marks), reads
 * another route made and no change has touched since are taken from there, and new ones kept.
 */
export const hazardRows = Effect.fnUntraced(function* (featureTypes: ReadonlyArray<string>, kept?: HazardCellView) {
  const sql = yield* SqlClient.SqlClient
  const engine = yield* Effect.serviceOption(RoutingEngine)
  const eventsIn = new Map<string, ReadonlyArray<EventRow>>()
  const candidatesIn = new Map<string, CellCandidates>()
  const features = new Map<string, FeatureRow | null>()
  /** where each candidate met lies: an inactive feature's kept absence is judged by its cell */
  const candidateAt = new Map<string, Candidate>()
  const typesKey = (types: ReadonlyArray<string>) => `candidates:${[...types].sort().join(",")}`
  const baseKind = typesKey(featureTypes)

  /**
   * the cell index's candidates of these types, per cell; rows name their cell by its place in
   * the list asked (`cell_at`, a small integer), not by its id (a string per row)
   */
  const candidatesQuery = (cells: ReadonlyArray<string>, types: ReadonlyArray<string>) =>
    Effect.map(
      sql<CandidateRow>`
    SELECT c.at::int AS cell_at, f.* FROM unnest(${cells}::bigint[]) WITH ORDINALITY AS c(cell, at) CROSS JOIN LATERAL (
      SELECT feature_id, latitude, longitude, is_point FROM feature_cells
      WHERE res = 7 AND cell = c.cell AND feature_type = ANY(${types}) OFFSET 0) f`,
      (rows) => groupCandidates(cells.length, rows)
    )

  const readCells = (cells: ReadonlyArray<string>) =>
    Effect.all(
      [
        sql<EventRow & { cell_at: number }>`
        SELECT c.at::int AS cell_at, e.* FROM unnest(${cells}::bigint[]) WITH ORDINALITY AS c(cell, at) CROSS JOIN LATERAL (
          SELECT id, source, source_id, type, sub_type, severity, status, title, description, latitude, longitude, geometry, affected_roads,
            start_time, end_time, estimated_start_time, estimated_end_time
          FROM events WHERE h3_r7 = c.cell AND archived_at IS NULL OFFSET 0) e`,
        candidatesQuery(cells, featureTypes)
      ],
      { concurrency: 2 }
    ).pipe(
      Effect.map(([events, candidates]) => {
        // rows keep their `cell_at` (copying each without it cost more than the rest of the read)
        const byCell: Array<Array<EventRow> | undefined> = new Array(cells.length)
        for (const e of events) {
          // only rows the store keeps are worth sharing strings for
          if (kept) internEvent(e)
          ;(byCell[e.cell_at - 1] ??= []).push(e)
        }
        for (let i = 0; i < cells.length; i++) {
          // a kept list is copied at its size: an array grown by pushing holds 17 slots for one row
          const list = byCell[i]
          eventsIn.set(cells[i], list === undefined ? NO_EVENTS : kept ? list.slice() : list)
          candidatesIn.set(cells[i], candidates[i])
        }
        if (kept) {
          for (const c of cells) {
            const cell5 = parentAt5(c)
            kept.put("events", c, eventsIn.get(c)!, cell5)
            kept.put(baseKind, c, candidatesIn.get(c)!, cell5)
          }
        }
      })
    )

  /** a cell's events and candidates another route read, when both are still good */
  const fromStore = (c: string) => {
    if (!kept) return false
    const events = kept.get<ReadonlyArray<EventRow>>("events", c)
    const candidates = events && kept.get<CellCandidates>(baseKind, c)
    if (!events || !candidates) return false
    eventsIn.set(c, events)
    candidatesIn.set(c, candidates)
    return true
  }

  /** events and feature candidates in these cells, each once */
  // no generators made in here: each would keep this store's rows past the request (keptByScavenges,
  // api/http/mountRoutes.ts)
  const inCells = (cells: ReadonlyArray<string>) =>
    Effect.suspend(() => {
      const missing = cells.filter((c) => !eventsIn.has(c) && !fromStore(c))
      return Effect.forEach(
        Chunk.chunksOf(Chunk.fromIterable(missing), CELLS_PER_QUERY),
        (chunk) => readCells(Chunk.toArray(chunk)),
        { discard: true }
      )
    }).pipe(
      Effect.map(() => {
        const events = new Map<string, EventRow>()
        const candidates = new Map<string, Candidate>()
        for (const c of cells) {
          for (const e of eventsIn.get(c)!) events.set(e.id, e)
          addCandidates(candidatesIn.get(c)!, candidates)
        }
        if (kept) for (const f of candidates.values()) candidateAt.set(f.feature_id, f)
        return { events: [...events.values()], candidates: [...candidates.values()] }
      })
    )

  /** the active features among these ids */
  const featureRows = (ids: ReadonlyArray<string>) =>
    Effect.suspend(() => {
      const missing = ids.filter((id) => {
        if (features.has(id)) return false
        const row = kept?.get<FeatureRow | null>("features", id)
        if (row === undefined) return true
        features.set(id, row)
        return false
      })
      const found = () => ids.flatMap((id) => features.get(id) ?? [])
      if (missing.length === 0) return Effect.succeed(found())
      return Effect.map(
        sql<FeatureRow>`SELECT ${sql.literal(ROUTE_FEATURE_COLUMNS)} FROM features WHERE id = ANY(${missing}) AND is_active`,
        (rows) => {
          for (const id of missing) features.set(id, null)
          for (const r of rows) {
            if (kept) internFeature(r)
            features.set(r.id, r)
          }
          if (kept) {
            // a row is judged by its own res-5 cell (any change to it marks that cell); an absence
            // (inactive) by the cell where its candidate lies, which a change back marks too
            for (const id of missing) {
              const row = features.get(id)!
              const at = row ?? candidateAt.get(id)
              if (at) kept.put("features", id, row, cellsOf(at.latitude, at.longitude).r5)
            }
          }
          return found()
        }
      )
    })

  /**
   * Candidates of some feature types only, in cells of their own (places to stop lie within a
   * wider band than hazards, and need neither events nor the other types there).
   */
  const typedIn = new Map<string, Map<string, CellCandidates>>()
  const candidatesOf = (cells: ReadonlyArray<string>, types: ReadonlyArray<string>) =>
    Effect.suspend(() => {
      const kind = typesKey(types)
      const byCell = typedIn.get(kind) ?? new Map<string, CellCandidates>()
      typedIn.set(kind, byCell)
      const missing = cells.filter((c) => {
        if (byCell.has(c)) return false
        const hit = kept?.get<CellCandidates>(kind, c)
        if (hit === undefined) return true
        byCell.set(c, hit)
        return false
      })
      return Effect.forEach(
        Chunk.chunksOf(Chunk.fromIterable(missing), CELLS_PER_QUERY),
        (chunk) => {
          const asked = Chunk.toArray(chunk)
          return Effect.map(candidatesQuery(asked, types), (found) => {
            asked.forEach((c, i) => byCell.set(c, found[i]))
            if (kept) for (const c of asked) kept.put(kind, c, byCell.get(c)!, parentAt5(c))
          })
        },
        { discard: true }
      ).pipe(
        Effect.map(() => {
          const out = new Map<string, Candidate>()
          for (const c of cells) addCandidates(byCell.get(c)!, out)
          if (kept) for (const f of out.values()) candidateAt.set(f.feature_id, f)
          return [...out.values()]
        })
      )
    })

  /**
   * A route's res-7 cover at a buffer, worked out once per request: the union of its road
   * pieces' covers where the engine keeps them (a route it just answered), else from its line.
   */
  const covers = new WeakMap<object, Map<number, ReadonlyArray<string>>>()
  const coverOf = (route: RouteTrack & { readonly segment_keys?: ReadonlyArray<string> }, bufferM: number) => {
    const byBuffer = covers.get(route) ?? new Map<number, ReadonlyArray<string>>()
    covers.set(route, byBuffer)
    let cells = byBuffer.get(bufferM)
    if (!cells) {
      const keys = route.segment_keys
      cells =
        (keys && Option.isSome(engine) ? engine.value.covers?.(keys, bufferM) : undefined) ??
        routeCover(route.coordinates, route.along_m, bufferM).cells
      byBuffer.set(bufferM, cells)
    }
    return cells
  }

  /**
   * The res-7 cover at a buffer of one stretch of a route, from `fromM` to `toM` along it: the
   * road pieces that reach into the stretch, with one more on each side.
   */
  const coverOfStretch = (
    route: RouteTrack & { readonly segment_keys?: ReadonlyArray<string> },
    bufferM: number,
    fromM: number,
    toM: number
  ) => {
    const along = route.along_m
    let i0 = 0
    while (i0 + 1 < along.length && along[i0 + 1] < fromM) i0++
    let i1 = i0
    while (i1 + 1 < along.length && along[i1] <= toM) i1++
    i0 = Math.max(0, i0 - 1)
    i1 = Math.min(along.length - 1, i1 + 1)
    const keys = route.segment_keys?.slice(i0, i1 + 1)
    return (
      (keys && Option.isSome(engine) ? engine.value.covers?.(keys, bufferM) : undefined) ??
      routeCover(route.coordinates.slice(i0, i1 + 1), along.slice(i0, i1 + 1), bufferM).cells
    )
  }

  /** every res-7 cell read so far: what a later change must touch to matter to this request */
  const cellsRead = () => [...new Set([...eventsIn.keys(), ...[...typedIn.values()].flatMap((m) => [...m.keys()])])]

  return { inCells, candidatesOf, featureRows, coverOf, coverOfStretch, cellsRead }
})

export type HazardRows = Effect.Effect.Success<ReturnType<typeof hazardRows>>
