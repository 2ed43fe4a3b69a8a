import { Clock, Effect } from "effect"
import { latestModelInfo, modelById, type StoredModel } from "./modelStore.js"
import type { ParkingModel } from "./ParkingForecaster.js"

/** How long a process keeps the newest model before asking the store again (refits are daily). */
const MODEL_CHECK_MS = 60_000

let cached: { info: StoredModel; model: ParkingModel; checkedAt: number } | undefined

/** The newest stored parking model, kept in memory and read again only when a newer one was stored. */
export const currentParkingModel = Effect.gen(function* () {
  const now = yield* Clock.currentTimeMillis
  if (cached !== undefined && now - cached.checkedAt < MODEL_CHECK_MS) return cached
  const info = yield* latestModelInfo
  if (info === undefined) return undefined
  if (cached?.info.id === info.id) {
    cached = { ...cached, checkedAt: now }
    return cached
  }
  const model = yield* modelById(info.id)
  if (model === undefined) return undefined
  cached = { info, model, checkedAt: now }
  return cached
})
