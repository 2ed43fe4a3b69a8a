import type { Route } from "../http/Route.js"
import { accountRoutes } from "./account.js"
import { analyticsRoutes } from "./analytics.js"
import { eventRoutes } from "./events.js"
import { featureDetailRoutes } from "./featureDetails.js"
import { featureRoutes } from "./features.js"
import { parkingForecastRoutes } from "./parkingForecast.js"
import { healthRoutes } from "./health.js"
import { mapRoutes } from "./map.js"
import { metadataRoutes } from "./metadata.js"
import { statusRoutes } from "./status.js"
import { routingRoutes } from "./routing.js"
import { truckRoutes } from "./truck.js"
import { truckProfileRoutes } from "./truckProfiles.js"
import { webhookRoutes } from "./webhooks.js"

/**
 * Every endpoint under /api/v1, in the order the router tries them (a literal path such as
 * /events/geojson before /events/:id). The bridge serves this list; the OpenAPI document describes it.
 */
export const apiRoutes = (startedAt: number): ReadonlyArray<Route> => [
  ...healthRoutes(startedAt),
  ...statusRoutes,
  ...accountRoutes,
  ...eventRoutes,
  ...featureRoutes,
  ...featureDetailRoutes,
  ...parkingForecastRoutes,
  ...mapRoutes,
  ...metadataRoutes(startedAt),
  ...analyticsRoutes,
  ...truckRoutes,
  ...routingRoutes,
  ...truckProfileRoutes,
  ...webhookRoutes
]
