import { Layer } from "effect"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { baseLayer } from "../../shared/db/BaseLive.js"
import { migrateWith } from "../../shared/db/migrate.js"
import { RoutingConfig } from "../../shared/routing/RoutingConfig.js"
import { seedReferenceData } from "../seed/seed.js"

/** Migrations, then the service's reference data (jurisdictions, groups, plans). */
export const migrate = migrateWith(seedReferenceData)

/**
 * Config (the routing settings checked at start too), a migrated and seeded database, and Redis: what every process
 * of the service starts from.
 */
export const BaseLive = Layer.merge(baseLayer(AppConfig.layer, seedReferenceData), RoutingConfig.layer)

/** The same for an API process: a Redis that goes away is answered (503 with Retry-After), not waited for. */
export const ApiBaseLive = Layer.merge(baseLayer(AppConfig.layer, seedReferenceData, "answer"), RoutingConfig.layer)
