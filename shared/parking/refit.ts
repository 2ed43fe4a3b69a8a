import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { DEFAULT_SETTINGS, fitParkingModel } from "./ParkingForecaster.js"
import { saveModel, storedReadings } from "./modelStore.js"
import { type ParkingReading, readHistoryFile } from "./readings.js"

/** How far back stored readings are fitted on. */
export const FIT_WINDOW_DAYS = 56
/** Stored readings are kept this long (a fit reads FIT_WINDOW_DAYS of them). */
export const KEEP_READINGS_DAYS = 90
/** Below this many days of stored readings the bundled history is fitted on as well. */
export const SEED_BELOW_DAYS = 14

/** Only one process fits at a time; the others find the model it stored. */
const REFIT_LOCK = 7_311_025

const daysSpanned = (rs: ReadonlyArray<ParkingReading>) => {
  if (rs.length === 0) return 0
  let min = Infinity
  let max = -Infinity
  for (const r of rs) {
    if (r.at < min) min = r.at
    if (r.at > max) max = r.at
  }
  return (max - min) / 86_400_000
}

/**
 * Fits the parking forecaster on the stored readings of the last FIT_WINDOW_DAYS, with the
 * bundled history (`seedFile`) added while the store holds less than SEED_BELOW_DAYS, and stores
 * the model. Returns undefined when another process held the lock (it is fitting).
 */
export const refitParkingModel = (seedFile: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        const [lock] = yield* sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${REFIT_LOCK}) AS ok`
        if (!lock.ok) return undefined
        const since = new Date(now - FIT_WINDOW_DAYS * 86_400_000).toISOString()
        // readings older than any fit reads are let go
        yield* sql`DELETE FROM parking_readings WHERE at < ${new Date(now - KEEP_READINGS_DAYS * 86_400_000).toISOString()}`
        const stored = yield* storedReadings(since)
        const seeded = daysSpanned(stored) < SEED_BELOW_DAYS
        const history = seeded ? [...(yield* Effect.promise(() => readHistoryFile(seedFile))), ...stored] : stored
        const started = performance.now()
        const model = fitParkingModel(history, {
          fittedAt: now,
          settings: DEFAULT_SETTINGS,
          progress: (m) => Effect.runSync(Effect.logDebug(m))
        })
        const fitMs = performance.now() - started
        const id = yield* saveModel(model, { seeded, readings: history.length, fitMs })
        yield* Effect.logInfo(
          `parking forecaster fitted: ${Object.keys(model.sites).length} sites from ${history.length} readings` +
            `${seeded ? " (bundled history included)" : ""} in ${(fitMs / 1000).toFixed(1)} s`
        )
        return { id, seeded, readings: history.length, sites: Object.keys(model.sites).length, fitMs }
      })
    )
  })
