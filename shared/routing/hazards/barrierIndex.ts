import { clearanceOf } from "../../domain/clearance.js"
import type { EdgeLocator } from "../RoutingEngine.js"
import { clearanceTitle, type TruckView, truckRestrictionTitle, violatedDimensions, weightLimitOf, weightTitle, type WarningType } from "./routeHazards.js"

/**
 * How far from a barrier the index looks for road pieces: the default hazard buffer with room
 * to spare. A request whose buffer is wider still finds the rest by its reroute rounds.
 */
export const BARRIER_REACH_M = 250

/** A closure or a structure that bars some trucks, placed on the engine's road pieces. */
export interface StandingBarrier {
  /** the feature's or event's id */
  readonly id: string
  readonly kind: "clearance" | "weight" | "truck" | "closure"
  readonly warning_type: WarningType
  readonly source_id: string
  /** the feature's name, the event's title */
  readonly name: string
  /** clearance in metres, weight limit in tonnes; NaN for the other kinds */
  readonly limit: number
  /** a truck restriction's record (what `violatedDimensions` reads) */
  readonly properties?: Record<string, unknown>
  /** its (estimated) window in ms; null: open */
  readonly start: number | null
  readonly end: number | null
  /** engine keys of the road pieces within BARRIER_REACH_M, and their distances */
  readonly keys: ReadonlyArray<string>
  readonly distances: ReadonlyArray<number>
}

/** A barrier as rows carry it, before it is placed. */
export interface BarrierSource {
  readonly id: string
  readonly source_id: string
  readonly name: string
  /** a feature type, or "closure" for an event */
  readonly feature_type: string
  readonly latitude: number
  readonly longitude: number
  readonly geometry: { type: string; coordinates: unknown } | null
  readonly properties: Record<string, unknown> | null
  readonly start: number | null
  readonly end: number | null
}

/** What a request asks of the index: its truck, its hazard buffer, and when it may pass. */
export interface BarrierQuery {
  readonly truck: TruckView
  readonly clearancePadM: number
  readonly bufferM: number
  /** in force over this whole span (the departure to a bound on any arrival), unless temporal filtering is off */
  readonly fromMs: number
  readonly toMs: number
  readonly skipTemporal: boolean
}

/**
 * The barriers that bar a request's truck over its span and the road pieces to keep off for them,
 * in groups: the first is shared by every request with the same truck and buffer (the engine keeps
 * it prepared), the second (often empty) holds the pieces of barriers with windows of their own.
 */
export interface KeptOff {
  readonly keys: ReadonlyArray<ReadonlyArray<string>>
  /**
   * Whether a route on this road piece passes that barrier by a piece it was to keep off: the
   * engine let it through (a point walled in, the piece a point lies on), and no round can do better
   */
  readonly passedOn: (id: string, key: string) => boolean
}

/** What a route was moved off, as `avoided` lists it. */
export interface AvoidedBarrier {
  readonly warning_type: string
  readonly source_id: string
  readonly title: string
}

const KIND_OF: Record<string, { kind: StandingBarrier["kind"]; warning_type: WarningType }> = {
  bridge_clearances: { kind: "clearance", warning_type: "bridge_clearance" },
  bridges: { kind: "clearance", warning_type: "bridge_clearance" },
  weight_restrictions: { kind: "weight", warning_type: "weight_restriction" },
  truck_restrictions: { kind: "truck", warning_type: "truck_restriction" },
  closure: { kind: "closure", warning_type: "traffic_event" }
}

/** Every vertex of a line (or the point): where a barrier's road pieces are looked for. */
const placesOf = (s: BarrierSource): Array<readonly [number, number]> => {
  const g = s.geometry
  if (g && g.type === "LineString" && Array.isArray(g.coordinates)) return (g.coordinates as Array<[number, number]>).map(([lng, lat]) => [lat, lng] as const)
  if (g && g.type === "MultiLineString" && Array.isArray(g.coordinates)) return (g.coordinates as Array<Array<[number, number]>>).flat().map(([lng, lat]) => [lat, lng] as const)
  return [[s.latitude, s.longitude]]
}

/**
 * A barrier placed on the road pieces near it, or undefined when it can bar no truck (a
 * clearance or weight posting without a value) or lies beside no road.
 */
export const placeBarrier = (s: BarrierSource, locate: EdgeLocator): StandingBarrier | undefined => {
  const k = KIND_OF[s.feature_type]
  if (!k) return undefined
  const props = s.properties ?? {}
  const limit = k.kind === "clearance" ? clearanceOf(props) : k.kind === "weight" ? weightLimitOf(props) : NaN
  if (limit === undefined || (k.kind === "truck" && !Array.isArray(props.restrictions))) return undefined
  const near = new Map<string, number>()
  for (const [lat, lng] of placesOf(s)) {
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue
    for (const [key, d] of locate(lat, lng, BARRIER_REACH_M)) if (!(d >= (near.get(key) ?? Infinity))) near.set(key, d)
  }
  if (near.size === 0) return undefined
  // made at their size and filled: an array spread from an iterator holds each number boxed (an
  // object apiece), and one grown by pushing holds 17 slots for one value
  const keys = new Array<string>(near.size)
  const distances = new Array<number>(near.size)
  let i = 0
  for (const [key, d] of near) {
    keys[i] = key
    distances[i++] = d
  }
  return {
    id: s.id, kind: k.kind, warning_type: k.warning_type, source_id: s.source_id, name: s.name, limit,
    ...(k.kind === "truck" ? { properties: props } : {}),
    start: s.start, end: s.end, keys, distances
  }
}

/**
 * The barriers a worker knows ahead of any route (issue 32): live closures and the structures
 * that bar some trucks, each on the engine's road pieces near it. A route request takes those
 * that bar its truck over its whole trip and has the engine keep off their pieces in its first
 * search, instead of finding them on a route and searching again, round after round. Judging
 * matches `judgeHazards`: the same limits, the clearance pad, the same titles.
 */
export class BarrierIndex {
  private readonly byId = new Map<string, StandingBarrier>()
  /** a road piece's barriers: the one barrier itself where it has one (most), not an array of one */
  private readonly byKey = new Map<string, StandingBarrier | Array<StandingBarrier>>()
  /** bumped by every change: what `keptOff` worked out before is stale */
  private version = 0
  /**
   * Per truck and buffer: the barriers barring it with no end (already begun, or with no window)
   * and their pieces, and the others barring it by their limits (judged per request by their window)
   */
  private readonly kept = new Map<string, { version: number; validFromMs: number; ids: Set<string>; keys: ReadonlyArray<string>; windowed: Array<StandingBarrier> }>()
  /** clearances and weight postings in ascending limit, rebuilt on the first query after a change */
  private sorted: { clearance: Array<StandingBarrier>; weight: Array<StandingBarrier>; other: Array<StandingBarrier> } | undefined

  get size() {
    return this.byId.size
  }

  has(id: string) {
    return this.byId.has(id)
  }

  ids() {
    return this.byId.keys()
  }

  put(b: StandingBarrier) {
    this.remove(b.id)
    this.byId.set(b.id, b)
    for (const key of b.keys) {
      const at = this.byKey.get(key)
      if (at === undefined) this.byKey.set(key, b)
      else if (Array.isArray(at)) at.push(b)
      else this.byKey.set(key, [at, b])
    }
    this.sorted = undefined
    this.version++
  }

  remove(id: string) {
    const old = this.byId.get(id)
    if (!old) return
    this.byId.delete(id)
    for (const key of old.keys) {
      const at = this.byKey.get(key)
      const rest = Array.isArray(at) ? at.filter((x) => x !== old) : []
      if (rest.length === 0) this.byKey.delete(key)
      else this.byKey.set(key, rest.length === 1 ? rest[0] : rest)
    }
    this.sorted = undefined
    this.version++
  }

  /** Whether this barrier bars the truck for the whole span asked. */
  bars(b: StandingBarrier, q: BarrierQuery): boolean {
    if (!q.skipTemporal && !((b.start === null || b.start <= q.fromMs) && (b.end === null || b.end >= q.toMs))) return false
    switch (b.kind) {
      case "clearance": return b.limit < q.truck.height_m + q.clearancePadM
      case "weight": return q.truck.weight_t > b.limit
      case "truck": return violatedDimensions(b.properties!, q.truck).length > 0
      case "closure": return true
    }
  }

  /** Every barrier that bars the truck over the span. */
  barring(q: BarrierQuery): Array<StandingBarrier> {
    const s = (this.sorted ??= this.sortAll())
    const out: Array<StandingBarrier> = []
    const heightLimit = q.truck.height_m + q.clearancePadM
    for (const b of s.clearance) {
      if (b.limit >= heightLimit) break
      if (this.bars(b, q)) out.push(b)
    }
    for (const b of s.weight) {
      if (b.limit >= q.truck.weight_t) break
      if (this.bars(b, q)) out.push(b)
    }
    for (const b of s.other) if (this.bars(b, q)) out.push(b)
    return out
  }

  /**
   * What keeps this request off every barrier barring its truck over its span: `barring` and
   * `keysOf`, with the part that holds for any later departure worked out once per truck, buffer
   * and change of the index (a few thousand barriers and tens of thousands of pieces otherwise
   * gathered again by every request).
   */
  keptOff(q: BarrierQuery): KeptOff {
    const t = q.truck
    // every field `bars` reads (a truck restriction's height is the truck's own, without the pad)
    const signature = `${t.height_m}|${q.clearancePadM}|${t.weight_t}|${t.length_m}|${t.width_m}|${t.hazmat}|${q.bufferM}|${q.skipTemporal}`
    let entry = this.kept.get(signature)
    if (!entry || entry.version !== this.version || q.fromMs < entry.validFromMs) {
      // every barrier barring the truck by its limits, whatever its window
      const all = this.barring({ ...q, skipTemporal: true })
      const settled = (b: StandingBarrier) => q.skipTemporal || (b.end === null && (b.start === null || b.start <= q.fromMs))
      const timeless = all.filter(settled)
      if (this.kept.size >= 64) this.kept.clear()
      entry = {
        version: this.version,
        validFromMs: q.skipTemporal ? -Infinity : timeless.reduce((m, b) => Math.max(m, b.start ?? -Infinity), -Infinity),
        ids: new Set(timeless.map((b) => b.id)),
        keys: this.keysOf(timeless, q.bufferM),
        windowed: all.filter((b) => !settled(b))
      }
      this.kept.set(signature, entry)
    }
    const { ids, keys } = entry
    const windowed = entry.windowed.filter((b) => this.bars(b, q))
    const more = new Set(windowed.map((b) => b.id))
    const has = (id: string) => ids.has(id) || more.has(id)
    const passedOn = (id: string, key: string) => {
      const b = this.byId.get(id)
      return b !== undefined && has(id) && b.keys.some((k, i) => k === key && b.distances[i] <= q.bufferM)
    }
    return { passedOn, keys: windowed.length === 0 ? [keys] : [keys, this.keysOf(windowed, q.bufferM)] }
  }

  /** The road pieces these barriers lie within the buffer of. */
  keysOf(barriers: Iterable<StandingBarrier>, bufferM: number): Array<string> {
    const keys = new Set<string>()
    for (const b of barriers) for (let i = 0; i < b.keys.length; i++) if (b.distances[i] <= bufferM) keys.add(b.keys[i])
    return [...keys]
  }

  /** The barriers barring the truck within the buffer of any of these road pieces (a route's). */
  along(keys: Iterable<string>, q: BarrierQuery): Array<StandingBarrier> {
    const out = new Set<StandingBarrier>()
    const consider = (b: StandingBarrier, key: string) => {
      if (out.has(b)) return
      const i = b.keys.indexOf(key)
      if (b.distances[i] <= q.bufferM && this.bars(b, q)) out.add(b)
    }
    for (const key of keys) {
      const at = this.byKey.get(key)
      if (at === undefined) continue
      if (Array.isArray(at)) for (const b of at) consider(b, key)
      else consider(at, key)
    }
    return [...out]
  }

  /** A barrier as `avoided` names it: the type, source id and title its warning would have had. */
  avoided(b: StandingBarrier, q: BarrierQuery): AvoidedBarrier {
    const title = b.kind === "clearance" ? clearanceTitle(b.limit, b.name)
      : b.kind === "weight" ? weightTitle(b.limit, b.name)
      : b.kind === "truck" ? truckRestrictionTitle(violatedDimensions(b.properties!, q.truck)[0]?.dimension ?? "vehicle", b.name)
      : b.name
    return { warning_type: b.warning_type, source_id: b.source_id, title }
  }

  private sortAll() {
    const all = [...this.byId.values()]
    const byLimit = (kind: StandingBarrier["kind"]) => all.filter((b) => b.kind === kind).sort((a, b) => a.limit - b.limit)
    return { clearance: byLimit("clearance"), weight: byLimit("weight"), other: all.filter((b) => b.kind === "truck" || b.kind === "closure") }
  }
}
