import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ParkingModel } from "./ParkingForecaster.js"
import type { ParkingReading } from "./readings.js"

export interface StoredModel {
  readonly id: number
  readonly fitted_at: string
  readonly data_until: string
  readonly seeded: boolean
  readonly readings: number
  readonly sites: number
  readonly fit_ms: number
}

/** How many fitted models are kept; older ones are dropped when a new one is stored. */
const KEEP = 5

interface ReadingRow {
  site: string
  at: string
  available: number | null
  low: boolean
  capacity: number | null
  trend: ParkingReading["trend"]
}

const toReading = (r: ReadingRow): ParkingReading => ({
  site: r.site,
  at: Date.parse(r.at),
  available: r.available,
  low: r.low,
  capacity: r.capacity,
  trend: r.trend
})

/** Every stored reading since `since` (ISO), by site, oldest first; `sites` narrows to those sites. */
export const storedReadings = (since: string, sites?: string | ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<ReadingRow>`
      SELECT site, at, available, low, capacity, trend FROM parking_readings
      WHERE at >= ${since} ${
        sites === undefined
          ? sql``
          : typeof sites === "string"
            ? sql`AND site = ${sites}`
            : sql`AND site = ANY(${sites})`
      }
      ORDER BY site, at`.pipe(Effect.map((rows) => rows.map(toReading)))
  )

/** The newest fitted model's bookkeeping, or undefined when none was ever fitted. */
export const latestModelInfo = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<StoredModel>`
    SELECT id, fitted_at, data_until, seeded, readings, sites, fit_ms FROM parking_models ORDER BY id DESC LIMIT 1`.pipe(
    Effect.map((rows) => rows[0])
  )
)

/** The model with the given id (JSON as stored). */
export const modelById = (id: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ model: ParkingModel }>`SELECT model FROM parking_models WHERE id = ${id}`.pipe(
      Effect.map((rows) => rows[0]?.model)
    )
  )

export const saveModel = (model: ParkingModel, info: { seeded: boolean; readings: number; fitMs: number }) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(
      Effect.gen(function* () {
        const [row] = yield* sql<{ id: number }>`
          INSERT INTO parking_models (fitted_at, data_until, seeded, readings, sites, fit_ms, model)
          VALUES (${model.fittedAt}, ${model.dataUntil}, ${info.seeded}, ${info.readings},
                  ${Object.keys(model.sites).length}, ${Math.round(info.fitMs)}, ${JSON.stringify(model)}::jsonb)
          RETURNING id`
        yield* sql`DELETE FROM parking_models WHERE id <= ${row.id - KEEP}`
        return row.id
      })
    )
  )
