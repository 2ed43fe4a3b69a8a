import { Effect } from "effect"
import { hazardRows } from "../../shared/routing/hazards/hazardRows.js"
import { departingBy, evaluateRoutes, featureTypesOf } from "../../shared/routing/evaluation.js"
import type { SavedRouteRow } from "../../shared/routing/savedRoutes.js"

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

/**
 * A saved route as its owner refetches it (SPEC §4.4): the stored answer, with every route's
 * warnings, features and the primary's `hos[]` worked out again from current events and
 * features, as if leaving at the request's departure time or now, whichever is later.
 */
export const savedRouteAnswer = (row: SavedRouteRow, nowMs: number) =>
  Effect.gen(function* () {
    const evaluation = departingBy(row.evaluation, nowMs)
    const rows = yield* hazardRows(featureTypesOf(evaluation))
    const results = yield* evaluateRoutes(row.engine_routes, evaluation, nowMs, rows)
    const routes = row.answer.routes.map((r, i) => {
      const { hos: _stale, ...rest } = r
      return { ...rest, warnings: results[i].warnings, features: results[i].features, ...(results[i].hos ? { hos: results[i].hos } : {}) }
    })
    return {
      ...row.answer,
      routes,
      departure_time: new Date(evaluation.hazards.departureMs).toISOString(),
      hazard_count: routes.reduce((n, r) => n + r.warnings.length, 0),
      saved: {
        state: row.persisted_at === null ? "saved" as const : "persisted" as const,
        created_at: iso(row.created_at)!,
        expires_at: iso(row.expires_at),
        persisted_at: iso(row.persisted_at),
        monitored: row.monitor,
        evaluated_at: new Date(nowMs).toISOString()
      }
    }
  })
