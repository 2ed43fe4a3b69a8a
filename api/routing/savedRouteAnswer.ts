import { Effect } from "effect"
import { parentsAt5 } from "../../shared/geo/h3cells.js"
import { hazardRows, snapshotXmin } from "../../shared/routing/hazards/hazardRows.js"
import { departingBy, featureTypesOf, placeRoutes } from "../../shared/routing/evaluation.js"
import { keptRoutes, renderKept } from "../../shared/routing/keptRoute.js"
import { randomBytes } from "node:crypto"
import { Reply } from "../http/Route.js"
import { type SavedRouteRow, storePlacement } from "../../shared/routing/savedRoutes.js"

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

/**
 * A saved route as its owner refetches it (SPEC §4.4): the stored answer, with every route's
 * warnings, features and the primary's `hos[]` worked out again from current events and
 * features, as if leaving at the request's departure time or now, whichever is later. The rows
 * along the route are read again only when a change has touched its cells since they were
 * read; otherwise the kept rows are judged again (the arrival times and "in force" move with
 * the clock).
 */
export const savedRouteAnswer = (row: SavedRouteRow, nowMs: number) =>
  Effect.gen(function* () {
    const evaluation = departingBy(row.evaluation, nowMs)
    let kept = row.placed
    if (kept === null || row.stale) {
      // something changed along the route since it was read: read it again, and keep that
      const xmin = yield* snapshotXmin
      const rows = yield* hazardRows(featureTypesOf(evaluation))
      kept = keptRoutes(row.engine_routes, evaluation, nowMs, yield* placeRoutes(row.engine_routes, evaluation, rows))
      yield* storePlacement(row.id, kept, parentsAt5(rows.cellsRead()), xmin)
    }
    const rendered = row.engine_routes.map((r, i) => renderKept(r, evaluation, nowMs, kept[i], i === 0))
    // warnings and features are kept as JSON text: the answer is assembled around them
    const slot = (kind: string, i: number) => `@@${nonce}:${kind}:${i}@@`
    const nonce = randomBytes(6).toString("hex")
    const routes = row.answer.routes.map((r, i) => ({
      summary: r.summary, geometry: { type: "LineString", coordinates: row.engine_routes[i].coordinates }, sections: r.sections,
      warnings: [slot("w", i)], features: [slot("f", i)], ...(rendered[i].hos ? { hos: rendered[i].hos } : {})
    }))
    const body = JSON.stringify({
      ...row.answer,
      routes,
      departure_time: new Date(evaluation.hazards.departureMs).toISOString(),
      hazard_count: rendered.reduce((n, r) => n + r.warnings.length, 0),
      saved: {
        state: row.persisted_at === null ? "saved" : "persisted",
        created_at: iso(row.created_at),
        expires_at: iso(row.expires_at),
        persisted_at: iso(row.persisted_at),
        monitored: row.monitor,
        evaluated_at: new Date(nowMs).toISOString()
      }
    }).replace(new RegExp(`\\["@@${nonce}:(w|f):(\\d+)@@"\\]`, "g"), (_m, kind: string, i: string) =>
      `[${(kind === "w" ? rendered[Number(i)].warnings : rendered[Number(i)].features).join(",")}]`)
    return new Reply(200, body, "application/json")
  })

/** The answer as kept: its routes without what the tracks hold (geometry) or a refetch works out again. */
export const storedAnswer = <A extends { routes: ReadonlyArray<{ summary: unknown; sections: unknown }> }>(answer: A) =>
  ({ ...answer, routes: answer.routes.map((r) => ({ summary: r.summary, sections: r.sections })) })
