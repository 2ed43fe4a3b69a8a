import { Effect, Layer } from "effect"
import { defaultConsumerOptions, runConsumer, type ConsumerOptions } from "../ConsumerLoop.js"
import { applyChanges } from "./applyChanges.js"

export const MATERIALIZE_GROUP = "materialize"

/** The `materialize` consumer group: changes → events and event_history in Postgres. */
export const runMaterializer = (options: ConsumerOptions) => runConsumer(options, applyChanges)

export const MaterializerLive = (consumer: string) =>
  Layer.scopedDiscard(Effect.forkScoped(runMaterializer(defaultConsumerOptions(MATERIALIZE_GROUP, consumer))))
