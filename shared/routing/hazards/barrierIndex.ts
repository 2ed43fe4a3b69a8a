import { clearanceOf } from "../../domain/clearance.js"
import type { EdgeLocator } from "../engine/RoutingEngine.js"
import { grown, SlotPieces } from "./slotPieces.js"
import {
  clearanceTitle,
  type TruckView,
  truckRestrictionTitle,
  violatedDimensions,
  weightLimitOf,
  weightTitle,
  type WarningType
} from "./routeHazards.js"

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
  if (g && g.type === "LineString" && Array.isArray(g.coordinates))
    return (g.coordinates as Array<[number, number]>).map(([lng, lat]) => [lat, lng] as const)
  if (g && g.type === "MultiLineString" && Array.isArray(g.coordinates))
    return (g.coordinates as Array<Array<[number, number]>>).flat().map(([lng, lat]) => [lat, lng] as const)
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
  // made at their size and filled (the index copies them into its pool)
  const keys = new Array<string>(near.size)
  const distances = new Array<number>(near.size)
  let i = 0
  for (const [key, d] of near) {
    keys[i] = key
    distances[i++] = d
  }
  return {
    id: s.id,
    kind: k.kind,
    warning_type: k.warning_type,
    source_id: s.source_id,
    name: s.name,
    limit,
    ...(k.kind === "truck" ? { properties: props } : {}),
    start: s.start,
    end: s.end,
    keys,
    distances
  }
}

const KINDS: ReadonlyArray<StandingBarrier["kind"]> = ["clearance", "weight", "truck", "closure"]
const CLEARANCE = KINDS.indexOf("clearance")
const WEIGHT = KINDS.indexOf("weight")
const TRUCK = KINDS.indexOf("truck")
/** each kind's warning type, as KIND_OF pairs them */
const WARNING_TYPE: ReadonlyArray<WarningType> = KINDS.map(
  (kind) => Object.values(KIND_OF).find((k) => k.kind === kind)!.warning_type
)

/**
 * The barriers a worker knows ahead of any route: live closures and the structures
 * that bar some trucks, each on the engine's road pieces near it. A route request takes those
 * that bar its truck over its whole trip and has the engine keep off their pieces in its first
 * search, instead of finding them on a route and searching again, round after round. Judging
 * matches `judgeHazards`: the same limits, the clearance pad, the same titles.
 *
 * A barrier lives in a slot of columns (its strings in arrays, its numbers and pieces in typed
 * arrays), not as an object: the index is a worker's largest long-lived structure, and a full
 * collection's marking grows with the objects it holds (docs/BENCHMARKS.md). `along`
 * and `barring` answer slots; `idOf` and `avoided` read them.
 */
export class BarrierIndex {
  private readonly slotOf = new Map<string, number>()
  private readonly idAt: Array<string | undefined> = []
  private readonly sourceIdAt: Array<string> = []
  private readonly nameAt: Array<string> = []
  private kindAt = new Uint8Array(1024)
  /** clearance in metres, weight limit in tonnes; NaN for the other kinds */
  private limitAt = new Float64Array(1024)
  /** the window in ms, NaN for an open end */
  private startAt = new Float64Array(1024)
  private endAt = new Float64Array(1024)
  /** a truck restriction's record (what `violatedDimensions` reads), by slot */
  private readonly propertiesAt = new Map<number, Record<string, unknown>>()
  private readonly pieces = new SlotPieces()
  private readonly freeSlots: Array<number> = []
  /** bumped by every change: what `keptOff` worked out before is stale */
  private version = 0
  /**
   * Per truck and buffer: the barriers barring it with no end (already begun, or with no window)
   * and their pieces, and the others barring it by their limits (judged per request by their window)
   */
  private readonly kept = new Map<
    string,
    { version: number; validFromMs: number; slots: Set<number>; keys: ReadonlyArray<string>; windowed: Array<number> }
  >()
  /** clearance and weight slots in ascending limit, rebuilt on the first query after a change */
  private sorted: { clearance: Array<number>; weight: Array<number>; other: Array<number> } | undefined

  get size() {
    return this.slotOf.size
  }

  has(id: string) {
    return this.slotOf.has(id)
  }

  ids() {
    return this.slotOf.keys()
  }

  idOf(slot: number): string {
    return this.idAt[slot]!
  }

  put(b: StandingBarrier) {
    this.remove(b.id)
    const slot = this.freeSlots.pop() ?? this.idAt.length
    if (slot >= this.kindAt.length) {
      this.kindAt = grown(this.kindAt, slot + 1)
      this.limitAt = grown(this.limitAt, slot + 1)
      this.startAt = grown(this.startAt, slot + 1)
      this.endAt = grown(this.endAt, slot + 1)
    }
    this.slotOf.set(b.id, slot)
    this.idAt[slot] = b.id
    this.sourceIdAt[slot] = b.source_id
    this.nameAt[slot] = b.name
    this.kindAt[slot] = KINDS.indexOf(b.kind)
    this.limitAt[slot] = b.limit
    this.startAt[slot] = b.start ?? NaN
    this.endAt[slot] = b.end ?? NaN
    if (b.kind === "truck") this.propertiesAt.set(slot, b.properties ?? {})
    this.pieces.set(slot, b.keys, b.distances)
    this.sorted = undefined
    this.version++
  }

  remove(id: string) {
    const slot = this.slotOf.get(id)
    if (slot === undefined) return
    this.slotOf.delete(id)
    this.pieces.clear(slot)
    this.propertiesAt.delete(slot)
    this.idAt[slot] = undefined
    this.sourceIdAt[slot] = ""
    this.nameAt[slot] = ""
    this.freeSlots.push(slot)
    this.sorted = undefined
    this.version++
  }

  /** Whether the barrier in this slot bars the truck for the whole span asked. */
  private bars(slot: number, q: BarrierQuery): boolean {
    const start = this.startAt[slot]
    const end = this.endAt[slot]
    if (!q.skipTemporal && !((Number.isNaN(start) || start <= q.fromMs) && (Number.isNaN(end) || end >= q.toMs)))
      return false
    const limit = this.limitAt[slot]
    switch (this.kindAt[slot]) {
      case CLEARANCE:
        return limit < q.truck.height_m + q.clearancePadM
      case WEIGHT:
        return q.truck.weight_t > limit
      case TRUCK:
        return violatedDimensions(this.propertiesAt.get(slot)!, q.truck).length > 0
      default:
        return true
    }
  }

  /** Every barrier that bars the truck over the span. */
  barring(q: BarrierQuery): Array<number> {
    const s = (this.sorted ??= this.sortAll())
    const out: Array<number> = []
    const heightLimit = q.truck.height_m + q.clearancePadM
    for (const slot of s.clearance) {
      if (this.limitAt[slot] >= heightLimit) break
      if (this.bars(slot, q)) out.push(slot)
    }
    for (const slot of s.weight) {
      if (this.limitAt[slot] >= q.truck.weight_t) break
      if (this.bars(slot, q)) out.push(slot)
    }
    for (const slot of s.other) if (this.bars(slot, q)) out.push(slot)
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
      const settled = (slot: number) =>
        q.skipTemporal || (Number.isNaN(this.endAt[slot]) && !(this.startAt[slot] > q.fromMs))
      const timeless = all.filter(settled)
      if (this.kept.size >= 64) this.kept.clear()
      entry = {
        version: this.version,
        // NaN (no start) never wins the max
        validFromMs: q.skipTemporal
          ? -Infinity
          : timeless.reduce((m, slot) => (this.startAt[slot] > m ? this.startAt[slot] : m), -Infinity),
        slots: new Set(timeless),
        keys: this.keysOf(timeless, q.bufferM),
        windowed: all.filter((slot) => !settled(slot))
      }
      this.kept.set(signature, entry)
    }
    const { slots, keys } = entry
    const windowed = entry.windowed.filter((slot) => this.bars(slot, q))
    const more = new Set(windowed)
    const passedOn = (id: string, key: string) => {
      const slot = this.slotOf.get(id)
      const piece = this.pieces.pieceNumber(key)
      return (
        slot !== undefined &&
        piece !== undefined &&
        (slots.has(slot) || more.has(slot)) &&
        this.pieces.distance(slot, piece) <= q.bufferM
      )
    }
    return { passedOn, keys: windowed.length === 0 ? [keys] : [keys, this.keysOf(windowed, q.bufferM)] }
  }

  /** The road pieces these barriers lie within the buffer of. */
  keysOf(slots: Iterable<number>, bufferM: number): Array<string> {
    const pieces = new Set<number>()
    const near = (piece: number, d: number) => {
      if (d <= bufferM) pieces.add(piece)
    }
    for (const slot of slots) this.pieces.each(slot, near)
    const keys = new Array<string>(pieces.size)
    let i = 0
    for (const piece of pieces) keys[i++] = this.pieces.key(piece)
    return keys
  }

  /** The barriers barring the truck within the buffer of any of these road pieces (a route's). */
  along(keys: Iterable<string>, q: BarrierQuery): Array<number> {
    const out = new Set<number>()
    const consider = (slot: number, piece: number) => {
      if (!out.has(slot) && this.pieces.distance(slot, piece) <= q.bufferM && this.bars(slot, q)) out.add(slot)
    }
    for (const key of keys) this.pieces.slotsAt(key, consider)
    return [...out]
  }

  /** A barrier as `avoided` names it: the type, source id and title its warning would have had. */
  avoided(slot: number, q: BarrierQuery): AvoidedBarrier {
    const kind = this.kindAt[slot]
    const limit = this.limitAt[slot]
    const name = this.nameAt[slot]
    const title =
      kind === CLEARANCE
        ? clearanceTitle(limit, name)
        : kind === WEIGHT
          ? weightTitle(limit, name)
          : kind === TRUCK
            ? truckRestrictionTitle(
                violatedDimensions(this.propertiesAt.get(slot)!, q.truck)[0]?.dimension ?? "vehicle",
                name
              )
            : name
    return { warning_type: WARNING_TYPE[kind], source_id: this.sourceIdAt[slot], title }
  }

  private sortAll() {
    const clearance: Array<number> = []
    const weight: Array<number> = []
    const other: Array<number> = []
    for (const slot of this.slotOf.values()) {
      const kind = this.kindAt[slot]
      if (kind === CLEARANCE) clearance.push(slot)
      else if (kind === WEIGHT) weight.push(slot)
      else other.push(slot)
    }
    const byLimit = (a: number, b: number) => this.limitAt[a] - this.limitAt[b]
    return { clearance: clearance.sort(byLimit), weight: weight.sort(byLimit), other }
  }
}
