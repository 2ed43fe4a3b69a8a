import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Change, EventChange, FeatureChange } from "../../../shared/domain/Change.js"
import { archiveRows, contentRows, upsertArchives, upsertContent } from "./eventFacts.js"
import { insertParkingRows, parkingRows } from "./parkingReadings.js"
import { deactivateStations, readingRows, upsertReadings } from "./weatherReadings.js"
import { type SnapshotSettings, snapshotNewEvents, snapshotRecentEvents } from "./weatherSnapshots.js"

/**
 * One batch in one transaction: station readings first, truck-parking readings (the parking
 * forecaster's history) (so an event created in the same batch
 * sees them), then event facts, then the weather snapshots of the events this batch created and
 * of recent events a newly arrived reading now describes. Every write is keyed and versioned,
 * so applying the same messages again leaves the same rows.
 */
export const applyAnalytics = (settings: SnapshotSettings) => (changes: ReadonlyArray<Change>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const events: Array<EventChange> = []
    const features: Array<FeatureChange> = []
    for (const c of changes) {
      if (c.kind === "event") events.push(c)
      else if (c.kind === "feature") features.push(c)
    }
    const weather = readingRows(features)
    const parking = parkingRows(features)
    const created = events.filter((c) => c.op === "created").map((c) => c.event_id)
    if (weather.readings.length + weather.deactivated.length + parking.length + events.length === 0) return
    yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* upsertReadings(weather.readings)
        yield* deactivateStations(weather.deactivated)
        yield* insertParkingRows(parking)
        yield* upsertContent(contentRows(events))
        yield* upsertArchives(archiveRows(events))
        yield* snapshotNewEvents(created, settings)
        if (weather.readings.length > 0) yield* snapshotRecentEvents(weather.seenAt, settings)
      })
    )
  })
