import { Effect, Option } from "effect"
import { parentsAt5 } from "../../geo/h3cells.js"
import { hazardRows } from "../hazards/hazardRows.js"
import { HazardCells, lookAtMarks } from "../hazards/HazardCells.js"
import { departingBy, featureTypesOf, placeRoutes } from "../plan/evaluation.js"
import { keptRoutes, renderKept } from "./keptRoute.js"
import { randomBytes } from "node:crypto"
import { type RefetchRow, storePlacement } from "./savedRoutes.js"

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

/**
 * A saved route as its owner refetches it, as JSON text (SPEC §4.4): the stored answer, with every route's
 * warnings, features and the primary's `hos[]` worked out again from current events and
 * features, as if leaving at the request's departure time or now, whichever is later. The rows
 * along the route are read again only when a change has touched its cells since they were
 * read; otherwise the kept rows are judged again (the arrival times and "in force" move with
 * the clock).
 */
export const savedRouteAnswer = Effect.fnUntraced(function* (row: RefetchRow, nowMs: number) {
  const evaluation = departingBy(row.evaluation, nowMs)
  let kept = row.placed
  const tracks = row.engine_routes
  if (tracks !== null && (kept === null || row.stale)) {
    // something changed along the route since it was read: read it again, and keep that
    const store = Option.getOrUndefined(yield* Effect.serviceOption(HazardCells))
    const xmin = yield* lookAtMarks(store)
    const rows = yield* hazardRows(featureTypesOf(evaluation), store?.view(Number(xmin)))
    kept = keptRoutes(tracks, evaluation, nowMs, yield* placeRoutes(tracks, evaluation, rows))
    yield* storePlacement(row.id, kept, parentsAt5(rows.cellsRead()), xmin)
  }
  const placed = kept!
  // without tracks (the usual refetch) the items carry their drive seconds and the primary's timing gives hos[]
  const rendered = row.answer.routes.map((_r, i) =>
    renderKept(tracks?.[i] ?? (i === 0 ? row.timing : null), evaluation, nowMs, placed[i], i === 0)
  )
  // geometry is kept as the answer's JSON text: spliced in, never parsed and written again
  const geometry = (i: number) =>
    tracks === null || (row.geometry_text !== null && row.geometry_ends !== null)
      ? row.geometry_text!.slice(i === 0 ? 0 : row.geometry_ends![i - 1], row.geometry_ends![i])
      : JSON.stringify({ type: "LineString", coordinates: tracks[i].coordinates })
  // warnings and features are kept as JSON text too: the answer is assembled around them
  const slot = (kind: string, i: number) => `@@${nonce}:${kind}:${i}@@`
  const nonce = randomBytes(6).toString("hex")
  const routes = row.answer.routes.map((r, i) => ({
    summary: r.summary,
    geometry: slot("g", i),
    sections: r.sections,
    border_crossings: r.border_crossings ?? [],
    warnings: [slot("w", i)],
    features: [slot("f", i)],
    ...(rendered[i].hos ? { hos: rendered[i].hos } : {})
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
  }).replace(
    new RegExp(`\\["@@${nonce}:(w|f):(\\d+)@@"\\]|"@@${nonce}:g:(\\d+)@@"`, "g"),
    (_m, kind: string | undefined, i: string | undefined, g: string | undefined) =>
      g !== undefined
        ? geometry(Number(g))
        : `[${(kind === "w" ? rendered[Number(i)].warnings : rendered[Number(i)].features).join(",")}]`
  )
  // JSON text, not an object: the edge sends it as it is, with no ETag (no two refetches are equal)
  return body
})

/** The answer as kept: its routes without what the tracks hold (geometry) or a refetch works out again. */
export const storedAnswer = <
  A extends { routes: ReadonlyArray<{ summary: unknown; sections: unknown; border_crossings?: unknown }> }
>(
  answer: A
) => ({
  ...answer,
  routes: answer.routes.map((r) => ({ summary: r.summary, sections: r.sections, border_crossings: r.border_crossings }))
})
