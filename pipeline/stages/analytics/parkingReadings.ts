import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { FeatureChange } from "../../../shared/domain/Change.js"
import { PARKING_TYPES, siteKey } from "../../../shared/parking/readings.js"

export interface ParkingRow {
  site: string
  at: string
  available: number | null
  low: boolean
  capacity: number | null
  trend: string | null
}

const count = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : null)

/**
 * One forecaster reading per truck-parking change that says something about free spaces: a
 * count the site vouched for (the adapters publish `available` only for trusted counts), or its
 * "LOW". Timed by when the pipeline read it, as the bundled history is by its poll time; a stale
 * reading (the adapter flags it) is no reading of now.
 */
export const parkingRows = (changes: ReadonlyArray<FeatureChange>): Array<ParkingRow> => {
  const rows = new Map<string, ParkingRow>()
  for (const c of changes) {
    const f = c.feature
    if (f === undefined || !PARKING_TYPES.has(c.keys.feature_type) || c.op === "deactivated") continue
    const p = f.properties
    if (p.stale === true) continue
    const available = count(p.available)
    const low = available === null && typeof p.availability_text === "string" && p.availability_text === "LOW"
    if (available === null && !low) continue
    const trend = typeof p.trend === "string" ? p.trend.toUpperCase() : null
    const row: ParkingRow = {
      site: siteKey(f.jurisdiction, f.source_id),
      at: c.at,
      available,
      low,
      capacity: count(p.capacity),
      trend: trend === "FILLING" || trend === "CLEARING" || trend === "STEADY" ? trend : null
    }
    rows.set(`${row.site}|${row.at}`, row)
  }
  // within a batch, a count repeated within REPEAT_EVERY_MS says nothing new
  const kept: Array<ParkingRow> = []
  const last = new Map<string, ParkingRow>()
  for (const row of [...rows.values()].sort((a, b) => a.site.localeCompare(b.site) || a.at.localeCompare(b.at))) {
    const before = last.get(row.site)
    if (
      before !== undefined &&
      before.available === row.available &&
      before.low === row.low &&
      Date.parse(row.at) - Date.parse(before.at) < REPEAT_EVERY_MS
    )
      continue
    kept.push(row)
    last.set(row.site, row)
  }
  return kept
}

/**
 * A site polled every minute that says the same count for an hour is one reading every five
 * minutes, not sixty: the forecaster's history (fitted in memory) stays the size of the feeds'
 * own cadence (TPIMS sites report every 5 to 15 minutes). A changed count is always kept.
 */
export const REPEAT_EVERY_MS = 5 * 60_000

/**
 * Keyed by site and time, so a replayed batch writes nothing twice; a count the store already has
 * from less than REPEAT_EVERY_MS before is not written again.
 */
export const insertParkingRows = (rows: ReadonlyArray<ParkingRow>) =>
  rows.length === 0
    ? Effect.void
    : Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`
    INSERT INTO parking_readings (site, at, available, low, capacity, trend)
    SELECT x.* FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS x(site text, at timestamptz, available integer, low boolean, capacity integer, trend text)
    WHERE NOT EXISTS (
      SELECT 1 FROM parking_readings p
      WHERE p.site = x.site AND p.at <= x.at AND p.at > x.at - ${REPEAT_EVERY_MS / 1000} * interval '1 second'
        AND p.available IS NOT DISTINCT FROM x.available AND p.low = x.low)
    ON CONFLICT (site, at) DO NOTHING`
      ).pipe(Effect.asVoid)
