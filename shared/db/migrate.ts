import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { Effect } from "effect"
import core from "./migrations/0001_core.js"
import features from "./migrations/0002_features.js"
import geoDistance from "./migrations/0003_geo_distance.js"
import coverageFuel from "./migrations/0004_coverage_fuel.js"
import planGates from "./migrations/0005_plan_gates.js"
import webhooks from "./migrations/0006_webhooks.js"
import haversineClamp from "./migrations/0007_haversine_clamp.js"
import sourceMetadata from "./migrations/0008_source_metadata.js"
import analytics from "./migrations/0009_analytics.js"
import routingAccounts from "./migrations/0010_routing_accounts.js"
import routeCache from "./migrations/0011_route_cache.js"
import pollRejections from "./migrations/0012_poll_rejections.js"
import eventLinks from "./migrations/0013_event_links.js"
import savedRouteRender from "./migrations/0014_saved_route_render.js"
import streamGroups from "./migrations/0015_stream_groups.js"
import portal from "./migrations/0016_portal.js"
import savedRouteLz4 from "./migrations/0017_saved_route_lz4.js"
import deliveryTrace from "./migrations/0018_delivery_trace.js"
import standingBarriers from "./migrations/0019_standing_barriers.js"
import cellMarksXid from "./migrations/0020_cell_marks_xid.js"
import eventQualityFlags from "./migrations/0021_event_quality_flags.js"
import publishedStreams from "./migrations/0022_published_streams.js"
import portalKey from "./migrations/0023_portal_key.js"
import planPrices from "./migrations/0024_plan_prices.js"
import webhookLastTest from "./migrations/0025_webhook_last_test.js"
import readingUnits from "./migrations/0026_reading_units.js"
import parkingForecasts from "./migrations/0027_parking_forecasts.js"
import eventLinkBox from "./migrations/0028_event_link_box.js"
import linkBoxSource from "./migrations/0029_link_box_source.js"

/** Every migration, in order; a new one is a file in shared/db/migrations and a line here. */
export const MIGRATIONS = {
  "0001_core": core,
  "0002_features": features,
  "0003_geo_distance": geoDistance,
  "0004_coverage_fuel": coverageFuel,
  "0005_plan_gates": planGates,
  "0006_webhooks": webhooks,
  "0007_haversine_clamp": haversineClamp,
  "0008_source_metadata": sourceMetadata,
  "0009_analytics": analytics,
  "0010_routing_accounts": routingAccounts,
  "0011_route_cache": routeCache,
  "0012_poll_rejections": pollRejections,
  "0013_event_links": eventLinks,
  "0014_saved_route_render": savedRouteRender,
  "0015_stream_groups": streamGroups,
  "0016_portal": portal,
  "0017_saved_route_lz4": savedRouteLz4,
  "0018_delivery_trace": deliveryTrace,
  "0019_standing_barriers": standingBarriers,
  "0020_cell_marks_xid": cellMarksXid,
  "0021_event_quality_flags": eventQualityFlags,
  "0022_published_streams": publishedStreams,
  "0023_portal_key": portalKey,
  "0024_plan_prices": planPrices,
  "0025_webhook_last_test": webhookLastTest,
  "0026_reading_units": readingUnits,
  "0027_parking_forecasts": parkingForecasts,
  "0028_event_link_box": eventLinkBox,
  "0029_link_box_source": linkBoxSource
}

const run = Migrator.make({})

/** Any constant shared by every process of the service: the key of the migration lock. */
const MIGRATION_LOCK = 7_311_511

/**
 * Versioned migrations (recorded in effect_sql_migrations), then `seed` (the reference data infra
 * supplies, idempotent), under a session advisory lock held on a connection of its own:
 * processes starting together wait for each other instead of racing on the same DDL.
 */
export const migrateWith = <E, R>(seed: Effect.Effect<void, E, R>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const lockConn = yield* sql.reserve
      yield* Effect.acquireRelease(lockConn.execute("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK], undefined), () =>
        lockConn.execute("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK], undefined).pipe(Effect.ignore)
      )
      const applied = yield* run({ loader: Migrator.fromRecord(MIGRATIONS) })
      if (applied.length > 0) yield* Effect.logInfo(`applied migrations: ${applied.map(([, n]) => n).join(", ")}`)
      yield* seed
    })
  )
