import { Effect, Layer } from "effect"
import { AppConfig } from "../../../shared/config/AppConfig.js"
import { type ConsumerOptions, defaultConsumerOptions, runStagedConsumer } from "../ConsumerLoop.js"
import { planChanges, writeChanges } from "./applyChanges.js"

export const MATERIALIZE_GROUP = "materialize"

/** The `materialize` consumer group: changes → events and event_history in Postgres. */
export const runMaterializer = (options: ConsumerOptions) =>
  runStagedConsumer(options, { prepare: planChanges, write: writeChanges })

export const MaterializerLive = (consumer: string) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const options = {
        ...defaultConsumerOptions(MATERIALIZE_GROUP, consumer),
        claimIdleMs: config.claimIdleMs,
        inFlight: config.materializeInFlight
      }
      yield* Effect.forkScoped(runMaterializer(options))
    })
  )
