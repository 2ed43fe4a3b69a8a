import { Layer } from "effect"
import { AppConfig } from "../config/AppConfig.js"
import { DatabaseLive } from "./Database.js"
import { migrate } from "./migrate.js"
import { Redis } from "./Redis.js"

/** Config, a migrated database and Redis: what every process starts from. */
export const baseLayer = <E>(config: Layer.Layer<AppConfig, E>) =>
  Layer.effectDiscard(migrate).pipe(
    Layer.provideMerge(Layer.merge(DatabaseLive, Redis.layer)),
    Layer.provideMerge(config)
  )

export const BaseLive = baseLayer(AppConfig.layer)
