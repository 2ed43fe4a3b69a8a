import { type Evaluation, type PlacedRoute, shows, type ShownWarning, shownWarnings } from "../plan/evaluation.js"
import { judgeHazards, type PlacedHazards, type Severity } from "../hazards/routeHazards.js"
import type { EventRow, FeatureRow, Stamp } from "../hazards/hazardRows.js"
import { CALENDAR_REGIMES, planStops } from "../hos/hosStops.js"
import { arrivalWithRests } from "../hos/projectHos.js"
import type { StopCandidate } from "../hos/stopCandidates.js"
import type { RouteTiming, RouteTrack } from "../engine/RoutingEngine.js"
import { secondsAt } from "../engine/routeTime.js"
import { without } from "../../domain/without.js"

/** One warning as kept: its JSON without the arrival time, and what the request's filter reads. */
export interface KeptWarning {
  readonly json: string
  readonly type: string
  readonly severity: Severity
  readonly distance: number
}

/** One warning of a saved route, with what decides whether it shows at a refetch. */
export interface KeptItem {
  readonly alongM: number
  /** drive seconds from the start to the hazard: arrival = departure + atS, whatever the departure */
  readonly atS?: number
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

const kept = (w: ShownWarning): KeptWarning => {
  return {
    json: JSON.stringify(without(w, "projected_arrival_time")),
    type: w.type,
    severity: w.severity,
    distance: w.distance_along_route_m
  }
}

/** The placed row a warning was judged from: its event or feature id, apart (the two may share ids). */
const rowKey = (w: ShownWarning) =>
  w.properties.event_id !== undefined ? `e${String(w.properties.event_id)}` : `f${String(w.properties.feature_id)}`

const byRow = (warnings: ReadonlyArray<ShownWarning>) => {
  const out = new Map<string, Array<ShownWarning>>()
  for (const w of warnings) {
    const k = rowKey(w)
    const list = out.get(k)
    if (list) list.push(w)
    else out.set(k, [w])
  }
  return out
}

/**
 * Warnings of each placed row at any time after `nowMs`: the ordinary one and, for a construction
 * not yet begun at `nowMs`, the future one (one begun already never warns as future again). The
 * rows are judged together twice (begun, and not yet begun), and each row's warnings are matched
 * by its id in the order judging gave them (a restriction may warn once per dimension).
 */
const warningsOf = (route: RouteTrack, e: Evaluation, nowMs: number, placed: PlacedHazards) => {
  const timeless = { ...e.hazards, skipTemporal: true }
  // the request's filters are applied when the route is shown
  const all = { minSeverity: "info" as const, excludeTypes: [] }
  const judged = judgeHazards(route, timeless, Number.POSITIVE_INFINITY, placed)
  const begun = shownWarnings(judged.warnings, all)
  // only a construction can warn otherwise before it begins: judge those alone (rows are judged one by one)
  const constructions = { events: placed.events.filter((x) => x.row.type === "construction"), features: [] }
  const ahead = byRow(
    shownWarnings(judgeHazards(route, timeless, Number.NEGATIVE_INFINITY, constructions).warnings, all)
  )
  const rows = new Map<string, { row: EventRow | FeatureRow; alongM: number }>()
  for (const x of placed.events) rows.set(`e${x.row.id}`, x)
  for (const x of placed.features) rows.set(`f${x.row.id}`, x)
  const seen = new Map<string, number>()
  const items = begun.map((w) => {
    const key = rowKey(w)
    const i = seen.get(key) ?? 0
    seen.set(key, i + 1)
    const { row, alongM } = rows.get(key)!
    const startMs = ms(row.estimated_start_time ?? row.start_time)
    const later = ahead.get(key)?.[i]
    return {
      alongM,
      from: startMs,
      to: ms(row.estimated_end_time ?? row.end_time),
      w,
      future: startMs !== null && startMs > nowMs && later !== undefined && later.type !== w.type ? later : undefined,
      startMs
    }
  })
  // the features along the route do not depend on time: this judging's are the route's
  return { items, features: judged.features }
}

export const keptRoutes = (
  routes: ReadonlyArray<RouteTrack>,
  e: Evaluation,
  nowMs: number,
  placed: ReadonlyArray<PlacedRoute>
): Array<KeptRoute> =>
  placed.map((p, i) => {
    const route = routes[i]
    // in the order judging gives: along the route, then by source id
    const { items: found, features: along } = warningsOf(route, e, nowMs, p.hazards)
    // a window over by now is over at every later arrival (refetches depart now or later)
    const items = found
      .filter((f) => e.hazards.skipTemporal || f.to === null || f.to >= nowMs)
      .map((f): KeptItem => ({
        alongM: f.alongM,
        atS: secondsAt(route, f.alongM),
        from: f.from,
        to: f.to,
        warning: kept(f.w),
        ...(f.future && f.startMs !== null ? { future: kept(f.future), startMs: f.startMs } : {})
      }))
    const features = along.map((f) => JSON.stringify(f))
    if (p.stops === undefined) return { items, features }
    // a regime that counts calendar days or weeks stops elsewhere when a refetch leaves later: keep every candidate
    if (p.stops === null || !e.hos || CALENDAR_REGIMES.has(e.hos.ruleset)) return { items, features, stops: p.stops }
    const suggested = new Set(
      planStops(route, e.hos.ruleset, e.hos.counters, 0, p.stops).stops.flatMap((s) =>
        s.suggested_stops.map((c) => c.id)
      )
    )
    return { items, features, stops: p.stops.filter((c) => suggested.has(c.id)) }
  })

/**
 * A kept route's warnings (JSON texts, route order), features and `hos[]` for a departure and
 * an instant: the same answer `judgeRoutes` gives on the rows it was kept from. `route` is read
 * only for `hos[]` (the primary) and for items kept before they carried `atS`.
 */
export const renderKept = (route: RouteTiming | null, e: Evaluation, nowMs: number, k: KeptRoute, primary: boolean) => {
  const s = e.shown
  const warnings: Array<string> = []
  const hos =
    primary && e.hos && k.stops !== undefined && route !== null
      ? planStops(route, e.hos.ruleset, e.hos.counters, e.hazards.departureMs, k.stops)
      : undefined
  // as judgeRoutes: the primary's arrivals count its planned rests
  const clock = hos
    ? arrivalWithRests(hos.plan, e.hazards.departureMs)
    : (driveS: number) => e.hazards.departureMs + driveS * 1000
  for (const it of k.items) {
    const arrival = clock(it.atS ?? secondsAt(route!, it.alongM))
    if (!e.hazards.skipTemporal && !((it.from === null || it.from <= arrival) && (it.to === null || it.to >= arrival)))
      continue
    const w = it.future !== undefined && it.startMs !== undefined && it.startMs > nowMs ? it.future : it.warning
    if (!shows(s, w.type, w.severity, w.distance)) continue
    warnings.push(`${w.json.slice(0, -1)},"projected_arrival_time":"${new Date(arrival).toISOString()}"}`)
  }
  return { warnings, features: k.features, ...(hos ? { hos: hos.stops } : {}) }
}
