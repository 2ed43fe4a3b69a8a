import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { nowMillis } from "../../shared/time/Now.js"
import { type EventFilters, whereClauses } from "./EventsQuery.js"
import { type FeatureFilters, featureWhere } from "./FeaturesQuery.js"

/** H3 resolutions stored for events and features (shared/geo/h3cells.ts). */
export type CellResolution = 3 | 5 | 7

/**
 * The resolution whose cells draw a few pixels wide at a web-map zoom: res 3 (≈ 60 km edge)
 * up to zoom 4, res 5 (≈ 9 km) to zoom 7, res 7 (≈ 1.2 km) beyond.
 */
export const resolutionForZoom = (zoom: number): CellResolution => (zoom < 5 ? 3 : zoom < 8 ? 5 : 7)

/** More cells than this in one answer is a view no one can read; the answer says it was cut. */
export const MAX_CELLS = 20_000

export interface CellCount {
  readonly cell: string
  readonly latitude: number
  readonly longitude: number
  readonly count: number
  /** the highest severity in the cell (events only) */
  readonly severity: string | null
  /** the most common event type or feature type */
  readonly top_type: string
}

const SEVERITY_RANK = `CASE severity WHEN 'critical' THEN 4 WHEN 'major' THEN 3 WHEN 'moderate' THEN 2 WHEN 'minor' THEN 1 ELSE 0 END`
const RANKED = ["", "minor", "moderate", "major", "critical"]

interface CellRow {
  readonly cell: string
  readonly count: number
  readonly lat: number
  readonly lng: number
  readonly sev: number | null
  readonly top_type: string
}

const toCells = (rows: ReadonlyArray<CellRow>) => {
  const cells: Array<CellCount> = rows.slice(0, MAX_CELLS).map((r) => ({
    cell: BigInt(r.cell).toString(16),
    latitude: Math.round(r.lat * 1e5) / 1e5,
    longitude: Math.round(r.lng * 1e5) / 1e5,
    count: r.count,
    severity: r.sev === null ? null : RANKED[r.sev] || null,
    top_type: r.top_type
  }))
  return { cells, truncated: rows.length > MAX_CELLS }
}

/** Events matching the filters, counted per H3 cell; each cell sits at its events' mean position. */
export const eventCells = (f: EventFilters, res: CellResolution) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const w = whereClauses(sql, f, yield* nowMillis)
    const rows = yield* sql<CellRow>`
      SELECT ${sql(`h3_r${res}`)}::text AS cell, count(*)::int AS count, avg(latitude) AS lat, avg(longitude) AS lng,
             max(${sql.literal(SEVERITY_RANK)}) AS sev, mode() WITHIN GROUP (ORDER BY type) AS top_type
      FROM events WHERE ${w.length === 0 ? sql`TRUE` : sql.and(w)}
      GROUP BY 1 LIMIT ${MAX_CELLS + 1}`
    return toCells(rows)
  })

/**
 * Features matching the filters, counted per H3 cell from the cell index: a point counts in
 * its own cell, a line or polygon in every cell it covers (a long corridor shows along its
 * length, not as one dot at its start).
 */
export const featureCells = (f: FeatureFilters, res: CellResolution) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const w = featureWhere(sql, f, yield* nowMillis)
    const rows = yield* sql<CellRow>`
      SELECT fc.cell::text AS cell, count(*)::int AS count, avg(fc.latitude) AS lat, avg(fc.longitude) AS lng,
             NULL::int AS sev, mode() WITHIN GROUP (ORDER BY fc.feature_type) AS top_type
      FROM feature_cells fc
      WHERE fc.res = ${res} AND fc.feature_type = ANY(${f.types})
        AND fc.feature_id IN (SELECT id FROM features WHERE ${sql.and(w)})
      GROUP BY fc.cell LIMIT ${MAX_CELLS + 1}`
    return toCells(rows)
  })
