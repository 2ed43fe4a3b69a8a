import { Effect, Layer } from "effect"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { type ConsumerOptions, defaultConsumerOptions, runConsumer } from "../ConsumerLoop.js"
import { applyAnalytics } from "./applyAnalytics.js"
import type { SnapshotSettings } from "./weatherSnapshots.js"

export const ANALYTICS_GROUP = "analytics"

/** The `analytics` consumer group: changes → analytics facts, station readings and weather snapshots. */
export const runAnalytics = (options: ConsumerOptions, settings: SnapshotSettings) =>
  runConsumer(options, applyAnalytics(settings))

export const AnalyticsLive = (consumer: string) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const options = { ...defaultConsumerOptions(ANALYTICS_GROUP, consumer), claimIdleMs: config.claimIdleMs }
      yield* Effect.forkScoped(
        runAnalytics(options, { maxKm: config.weatherSnapshotKm, lateS: config.weatherSnapshotLateS })
      )
    })
  )
