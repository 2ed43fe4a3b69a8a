import type { PlacedRoute, Evaluation } from "./evaluation.js"
import { shownWarnings } from "./evaluation.js"
import { atLeast, judgeHazards, type Severity } from "./hazards/routeHazards.js"
import type { EventRow, FeatureRow, Stamp } from "./hazards/hazardRows.js"
import { planStops } from "./hos/hosStops.js"
import type { StopCandidate } from "./hos/stopCandidates.js"
import type { RouteTrack } from "./RoutingEngine.js"
import { secondsAt } from "./routeTime.js"

/** One warning as kept: its JSON without the arrival time, and what the request's filter reads. */
interface KeptWarning {
  readonly json: string
  readonly type: string
  readonly severity: Severity
  readonly distance: number
}

/** One warning of a saved route, with what decides whether it shows at a refetch. */
interface KeptItem {
  readonly alongM: number
  /** the hazard's window (ms), null for an open end */
  readonly from: number | null
  readonly to: number | null
  readonly warning: KeptWarning
  /** a construction not yet begun warns as future_construction; `startMs` says until when */
  readonly future?: KeptWarning
  readonly startMs?: number
}

/**
 * What a saved route keeps to answer a refetch without reading the map: its warnings as text,
 * each with its window, the requested features, and the places the hours-of-service plan
 * suggests. A feature that warns this truck at no time keeps nothing: it cannot start to
 * without a change to it, and a change makes the route read its cells again. Where stops and
 * deadlines fall depends on drive time, not on the departure, so the suggestions stay.
 */
export interface KeptRoute {
  readonly items: ReadonlyArray<KeptItem>
  readonly features: ReadonlyArray<string>
  readonly stops?: ReadonlyArray<StopCandidate> | null
}

const ms = (d: Stamp | undefined) => (d == null ? null : new Date(d).getTime())

const kept = (w: ReturnType<typeof shownWarnings>[number]): KeptWarning => {
  const { projected_arrival_time: _t, ...rest } = w
  return { json: JSON.stringify(rest), type: w.type, severity: w.severity, distance: w.distance_along_route_m }
}

/** Warnings of one placed row at any time: the ordinary one and, for a construction, the future one. */
const itemsOf = (route: RouteTrack, e: Evaluation, one: { events: ReadonlyArray<PlacedRoute["hazards"]["events"][number]>; features: ReadonlyArray<PlacedRoute["hazards"]["features"][number]> }, row: EventRow | FeatureRow, alongM: number): Array<KeptItem> => {
  const timeless = { ...e.hazards, skipTemporal: true }
  // every filter but time is the request's own
  const shown = { ...e.shown, minSeverity: "info" as const, excludeTypes: [] }
  const begun = shownWarnings(judgeHazards(route, timeless, Number.POSITIVE_INFINITY, one).warnings, shown)
  const ahead = shownWarnings(judgeHazards(route, timeless, Number.NEGATIVE_INFINITY, one).warnings, shown)
  const startMs = ms(row.estimated_start_time ?? row.start_time)
  const window = { alongM, from: startMs, to: ms(row.estimated_end_time ?? row.end_time) }
  return begun.map((w, i) => {
    const f = ahead[i]
    const future = f !== undefined && f.type !== w.type ? kept(f) : undefined
    return { ...window, warning: kept(w), ...(future && startMs !== null ? { future, startMs } : {}) }
  })
}

export const keptRoutes = (routes: ReadonlyArray<RouteTrack>, e: Evaluation, placed: ReadonlyArray<PlacedRoute>): Array<KeptRoute> =>
  placed.map((p, i) => {
    const route = routes[i]
    const items = [
      ...p.hazards.events.flatMap((x) => itemsOf(route, e, { events: [x], features: [] }, x.row, x.alongM)),
      ...p.hazards.features.flatMap((x) => itemsOf(route, e, { events: [], features: [x] }, x.row, x.alongM))
    ]
    const order = (it: KeptItem) => it.warning
    items.sort((a, b) => order(a).distance - order(b).distance || sourceId(order(a)).localeCompare(sourceId(order(b))))
    const features = judgeHazards(route, { ...e.hazards, skipTemporal: true }, 0, p.hazards).features.map((f) => JSON.stringify(f))
    if (p.stops === undefined) return { items, features }
    if (p.stops === null || !e.hos) return { items, features, stops: p.stops }
    const suggested = new Set(planStops(route, e.hos.ruleset, e.hos.counters, 0, p.stops).flatMap((s) => s.suggested_stops.map((c) => c.id)))
    return { items, features, stops: p.stops.filter((c) => suggested.has(c.id)) }
  })

const sourceIds = new WeakMap<KeptWarning, string>()
const sourceId = (w: KeptWarning) => {
  let id = sourceIds.get(w)
  if (id === undefined) sourceIds.set(w, id = String((JSON.parse(w.json) as { source_id: string }).source_id))
  return id
}

/**
 * A kept route's warnings (JSON texts, route order), features and `hos[]` for a departure and
 * an instant: the same answer `judgeRoutes` gives on the rows it was kept from.
 */
export const renderKept = (route: RouteTrack, e: Evaluation, nowMs: number, k: KeptRoute, primary: boolean) => {
  const s = e.shown
  const excluded = new Set(s.excludeTypes)
  const warnings: Array<string> = []
  for (const it of k.items) {
    const arrival = e.hazards.departureMs + secondsAt(route, it.alongM) * 1000
    if (!e.hazards.skipTemporal && !((it.from === null || it.from <= arrival) && (it.to === null || it.to >= arrival))) continue
    const w = it.future !== undefined && it.startMs !== undefined && it.startMs > nowMs ? it.future : it.warning
    if (!atLeast(w.severity, s.minSeverity) || excluded.has(w.type) || (s.maxDistanceM !== undefined && w.distance > s.maxDistanceM)) continue
    warnings.push(`${w.json.slice(0, -1)},"projected_arrival_time":"${new Date(arrival).toISOString()}"}`)
  }
  const hos = primary && e.hos && k.stops !== undefined ? planStops(route, e.hos.ruleset, e.hos.counters, e.hazards.departureMs, k.stops) : undefined
  return { warnings, features: k.features, ...(hos ? { hos } : {}) }
}
