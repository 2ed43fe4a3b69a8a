import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { nowMillis } from "../../shared/time/Now.js"
import { type Corridor, coverCorridor, placeOnCorridor } from "../../shared/geo/corridor.js"
import { FEATURE_COLUMNS } from "../../shared/domain/featureColumns.js"
import { clearanceOf } from "../../shared/domain/clearance.js"

/** Types the corridor returns (SPEC §4.3). */
export const CORRIDOR_TYPES = [
  "bridge_clearances",
  "bridges",
  "weight_restrictions",
  "truck_restrictions",
  "truck_routes",
  "freight_corridors",
  "truck_parking"
] as const
const CLEARANCE_TYPES = new Set(["bridge_clearances", "bridges"])

export interface CorridorFilters {
  readonly corridor: Corridor
  readonly jurisdictions?: ReadonlyArray<string>
  /** vehicle height in metres: clearances are kept only when known and lower */
  readonly heightM?: number
  readonly limit: number
}

type Row = Record<string, unknown> & {
  latitude: number
  longitude: number
  geometry: { type: string; coordinates: unknown } | null
  feature_type: string
  properties: Record<string, unknown>
}

/**
 * Features in force today (UTC) within the buffered great-circle corridor: candidates from the
 * cell index, then the exact distance to the line; ordered by position along the corridor.
 */
export const corridorFeatures = (f: CorridorFilters) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const cover = coverCorridor(f.corridor)
    // in force today: the UTC day of the request's clock reading
    const dayStart = new Date(Math.floor((yield* nowMillis) / 86_400_000) * 86_400_000).toISOString()
    const start = sql`COALESCE(estimated_start_time, start_time)`
    const end = sql`COALESCE(estimated_end_time, end_time)`
    const rows = yield* sql<Row>`
      SELECT ${sql.literal(FEATURE_COLUMNS)} FROM features
      WHERE id IN (SELECT feature_id FROM feature_cells WHERE res = ${cover.res} AND cell = ANY(${cover.cells}::bigint[]) AND feature_type = ANY(${CORRIDOR_TYPES}))
        AND is_active
        AND (${start} IS NULL OR ${start} < ${dayStart}::timestamptz + interval '1 day')
        AND (${end} IS NULL OR ${end} >= ${dayStart}::timestamptz)
        ${f.jurisdictions ? sql`AND jurisdiction = ANY(${f.jurisdictions})` : sql``}`
    const matches: Array<{ row: Row; distanceKm: number; alongKm: number }> = []
    for (const row of rows) {
      if (f.heightM !== undefined && CLEARANCE_TYPES.has(row.feature_type)) {
        const clearance = clearanceOf(row.properties)
        if (clearance === undefined || clearance >= f.heightM) continue
      }
      const place = placeOnCorridor(f.corridor, row)
      if (place.distanceKm <= f.corridor.bufferKm) matches.push({ row, ...place })
    }
    matches.sort(
      (a, b) => a.alongKm - b.alongKm || a.distanceKm - b.distanceKm || String(a.row.id).localeCompare(String(b.row.id))
    )
    const data = matches.slice(0, f.limit).map(({ row, distanceKm }) => ({
      ...row,
      properties: { ...row.properties, _distance_km: distanceKm.toFixed(3) } // a decimal string, as SPEC §2.2 types it
    }))
    return { data, total: matches.length }
  })
