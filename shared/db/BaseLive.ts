import { Effect, Layer } from "effect"
import type { SqlClient } from "@effect/sql"
import type { AppConfig } from "../config/AppConfig.js"
import { DatabaseLive } from "./Database.js"
import { migrateWith } from "./migrate.js"
import { Redis } from "./Redis.js"

/**
 * Config, a migrated database and Redis: what every process starts from. `seed` is the reference
 * data written after the migrations (infra/db/BaseLive supplies the service's own); `redisAway`
 * how the process meets a Redis that goes away (the API answers, the pipeline waits).
 */
export const baseLayer = <E, SE>(
  config: Layer.Layer<AppConfig, E>,
  seed: Effect.Effect<void, SE, SqlClient.SqlClient> = Effect.void,
  redisAway: "wait" | "answer" = "wait"
) =>
  Layer.effectDiscard(migrateWith(seed)).pipe(
    Layer.provideMerge(Layer.merge(DatabaseLive, Redis.layerFor(redisAway))),
    Layer.provideMerge(config)
  )
