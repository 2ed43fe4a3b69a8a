import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { FuelPriceChange } from "../../../shared/domain/Change.js"

/** Fuel price rows: insert, or take a revision when its version is newer. Idempotent. */
export const applyFuelPriceChanges = Effect.fnUntraced(function* (changes: ReadonlyArray<FuelPriceChange>) {
  const sql = yield* SqlClient.SqlClient
  const latest = new Map<string, FuelPriceChange>()
  for (const c of changes) {
    const k = `${c.source}\u0000${c.source_id}`
    const seen = latest.get(k)
    if (!seen || seen.version < c.version) latest.set(k, c)
  }
  const rows = [...latest.values()].map((c) => ({
    ...c.price,
    area: c.price.area ?? "",
    source: c.source,
    version: c.version,
    at: c.at
  }))
  yield* sql`
    INSERT INTO fuel_prices AS fp (jurisdiction, area, country, fuel_type, price, currency, unit, period_date, frequency, source, version, observed_at)
    SELECT jurisdiction, area, country, fuel_type, price, currency, unit, period_date, frequency, source, version, at
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(jurisdiction text, area text, country text, fuel_type text,
      price numeric, currency text, unit text, period_date date, frequency text, source text, version bigint, at timestamptz)
    ON CONFLICT (source, jurisdiction, area, fuel_type, period_date) DO UPDATE SET
      price = excluded.price, currency = excluded.currency, unit = excluded.unit, frequency = excluded.frequency,
      version = excluded.version, observed_at = excluded.observed_at
    WHERE fp.version < excluded.version`
})
