import type { Route } from "../../http/Route.js"
import { portalWebhookRoutes } from "../webhooks.js"
import { portalAccountRoutes } from "./account.js"
import { portalKeyRoutes } from "./keys.js"
import { portalSessionRoutes } from "./session.js"

/** The portal's server side: routes under /api/v1/portal, for the browser and its session cookie. */
export const portalRoutes: ReadonlyArray<Route> = [
  ...portalSessionRoutes,
  ...portalKeyRoutes,
  ...portalAccountRoutes,
  ...portalWebhookRoutes
]
