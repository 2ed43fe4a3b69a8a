import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export interface FuelPriceFilters {
  readonly country?: string
  readonly fuelType?: string
  readonly jurisdictions?: ReadonlyArray<string>
  readonly latest: boolean
  readonly limit: number
  readonly offset: number
}

const COLUMNS = `id, jurisdiction, NULLIF(area, '') AS area, country, fuel_type, price::float8 AS price, currency, unit,
  to_char(period_date, 'YYYY-MM-DD') AS period_date, observed_at, frequency, source`

/** Fuel price rows (SPEC §2.8); `latest` keeps the newest row per jurisdiction, area and fuel type. */
export const listFuelPrices = (f: FuelPriceFilters) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const w = sql.and([
      f.country ? sql`country = ${f.country}` : sql`TRUE`,
      f.fuelType ? sql`fuel_type = ${f.fuelType}` : sql`TRUE`,
      f.jurisdictions ? sql`jurisdiction = ANY(${f.jurisdictions})` : sql`TRUE`
    ])
    const base = f.latest
      ? sql`SELECT DISTINCT ON (jurisdiction, area, fuel_type) ${sql.literal(COLUMNS)} FROM fuel_prices WHERE ${w}
            ORDER BY jurisdiction, area, fuel_type, period_date DESC, id DESC`
      : sql`SELECT ${sql.literal(COLUMNS)} FROM fuel_prices WHERE ${w}`
    const [rows, [{ total }]] = yield* Effect.all(
      [
        sql<
          Record<string, unknown>
        >`SELECT * FROM (${base}) r ORDER BY period_date DESC, jurisdiction, area NULLS FIRST, fuel_type, id
                                   LIMIT ${f.limit + 1} OFFSET ${f.offset}`,
        sql<{ total: number }>`SELECT count(*)::int AS total FROM (${base}) r`
      ],
      { concurrency: 2 }
    )
    return { rows: rows.slice(0, f.limit), total, hasMore: rows.length > f.limit }
  })

/** Fuel types the store holds: what an unknown `fuel_type` is checked against. */
export const knownFuelTypes = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ v: string }>`SELECT DISTINCT fuel_type AS v FROM fuel_prices ORDER BY 1`
).pipe(Effect.map((rows) => rows.map((r) => r.v)))
