import { Effect } from "effect"
import type { RouteTrack } from "../engine/RoutingEngine.js"
import { hazardRows } from "../hazards/hazardRows.js"
import { departingBy, type Evaluation, evaluateRoutes, featureTypesOf, warningKey } from "../plan/evaluation.js"

/**
 * The critical warnings on a saved route's primary route as of now (leaving now, or at its
 * departure time if that is later), read from the current events and features: what a persist
 * records as already known, and what the route monitor compares with it to find the news.
 */
export const criticalWarnings = Effect.fnUntraced(function* (evaluation: Evaluation, track: RouteTrack, nowMs: number) {
  const e = departingBy({ ...evaluation, hos: undefined }, nowMs)
  const [primary] = yield* evaluateRoutes([track], e, nowMs, yield* hazardRows(featureTypesOf(e)))
  return primary.warnings.filter((w) => w.severity === "critical").map((w) => ({ key: warningKey(w), warning: w }))
})
