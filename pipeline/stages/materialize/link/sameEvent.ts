import { distance, flattenEach, point, pointToLineDistance } from "@turf/turf"
import type { Feature, LineString, Position } from "geojson"
import { roadKey } from "../../../../shared/domain/Road.js"
import { isPosition } from "../../../../shared/geo/representativePoint.js"

/** What linking reads of an event: enough to judge "the same thing on the road", nothing more. */
export interface LinkSubject {
  readonly id: string
  readonly source: string
  readonly type: string
  readonly cause: string | null
  readonly direction: string | null
  readonly affected_roads: ReadonlyArray<string>
  /** its roads in one spelling (`roadKeys(affected_roads)`), as the materializer stores them */
  readonly road_keys: ReadonlyArray<string>
  readonly start_time: string | null
  readonly end_time: string | null
  readonly estimated_start_time?: string | null
  readonly estimated_end_time?: string | null
  readonly latitude: number
  readonly longitude: number
  readonly geometry: { readonly type: string; readonly coordinates: unknown } | null
}

export interface LinkJudgement {
  readonly reason: string
  readonly confidence: number
}

/**
 * Types two agencies may give one happening: a work zone one calls construction another calls a
 * closure or a restriction; a crash may be an incident and a closure; a storm a weather event, an
 * advisory or a closure.
 */
const COMPATIBLE = new Set([
  "closure|construction",
  "construction|restriction",
  "closure|restriction",
  "closure|incident",
  "incident|restriction",
  "closure|weather",
  "restriction|weather",
  "advisory|weather",
  "closure|special_event",
  "restriction|special_event"
])
export const compatibleTypes = (a: string, b: string) => a === b || COMPATIBLE.has([a, b].sort().join("|"))

/** Causes agree unless both are stated and differ: a rockfall (hazard) next to a crash (accident) is two events. */
export const compatibleCauses = (a: string | null, b: string | null) => a === null || b === null || a === b

/** Directions agree when equal, or when either side gives none or "both" (it cannot contradict). */
export const compatibleDirections = (a: string | null, b: string | null) =>
  a === null || b === null || a === "both" || b === "both" || a === b

const millis = (s: string | null | undefined, open: number) => {
  const t = s ? Date.parse(s) : Number.NaN
  return Number.isFinite(t) ? t : open
}
/** An unknown start is "always begun", an unknown end "still going": only stated times separate two events. */
const span = (e: LinkSubject) =>
  [
    millis(e.start_time ?? e.estimated_start_time, Number.NEGATIVE_INFINITY),
    millis(e.end_time ?? e.estimated_end_time, Number.POSITIVE_INFINITY)
  ] as const
export const overlappingTimes = (a: LinkSubject, b: LinkSubject) => {
  const [as, ae] = span(a)
  const [bs, be] = span(b)
  return as <= be && bs <= ae
}

export const roadKeys = (roads: ReadonlyArray<string>) => [
  ...new Set(roads.map(roadKey).filter((k): k is string => k !== null))
]

interface Shape {
  readonly lines: Array<Array<Position>>
  readonly points: Array<Position>
  /** [minLng, minLat, maxLng, maxLat] of every vertex */
  readonly box: readonly [number, number, number, number]
}

/** Shapes already worked out: a batch judges each subject against many candidates. */
const shapes = new WeakMap<LinkSubject, Shape>()
const shapeOf = (e: LinkSubject): Shape => {
  let s = shapes.get(e)
  if (s === undefined) {
    s = readShape(e)
    shapes.set(e, s)
  }
  return s
}

/** Vertices closer than this in both coordinates (about 0.1 mm) are one vertex. */
const SAME_VERTEX_DEG = 1e-9

/** The geometry as lines (rings are lines) and lone points; a missing or unusable geometry is the event's point. */
const readShape = (e: LinkSubject): Shape => {
  const lines: Array<Array<Position>> = []
  const points: Array<Position> = []
  const addLine = (cs: ReadonlyArray<unknown>) => {
    // a vertex within a fraction of a millimetre of the one before adds nothing, and turf's
    // point-to-line distance answers 0 for a segment that short (7e-15° long, 5.6 km away)
    const ps: Array<Position> = []
    for (const c of cs) {
      if (!isPosition(c)) continue
      const last = ps[ps.length - 1]
      if (
        last === undefined ||
        Math.abs(c[0] - last[0]) > SAME_VERTEX_DEG ||
        Math.abs(c[1] - last[1]) > SAME_VERTEX_DEG
      )
        ps.push(c)
    }
    if (ps.length >= 2) lines.push(ps)
    else points.push(...ps)
  }
  const g = e.geometry
  if (g) {
    try {
      flattenEach({ type: g.type, coordinates: g.coordinates } as never, (f: Feature) => {
        const part = f.geometry
        if (part.type === "Point") points.push(...[part.coordinates].filter(isPosition))
        else if (part.type === "LineString") addLine(part.coordinates)
        else if (part.type === "Polygon") for (const ring of part.coordinates) addLine(ring)
      })
    } catch {
      // coordinates of the wrong shape: the event's point stands in
    }
  }
  if (lines.length === 0 && points.length === 0) points.push([e.longitude, e.latitude])
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const [x, y] of [...points, ...lines.flat()]) {
    box[0] = Math.min(box[0], x)
    box[1] = Math.min(box[1], y)
    box[2] = Math.max(box[2], x)
    box[3] = Math.max(box[3], y)
  }
  return { lines, points, box }
}

/**
 * A distance in metres the two shapes are at least apart, from their bounding boxes alone: a
 * degree of latitude is never under 110 km, a degree of longitude never under 111 km times the
 * cosine of the highest latitude either box reaches. Lets most far pairs skip the exact measure.
 */
const boxGapMeters = (a: Shape, b: Shape) => {
  const dLat = Math.max(0, a.box[1] - b.box[3], b.box[1] - a.box[3])
  const dLng = Math.max(0, a.box[0] - b.box[2], b.box[0] - a.box[2])
  const highest = Math.min(
    89.9,
    Math.max(Math.abs(a.box[1]), Math.abs(a.box[3]), Math.abs(b.box[1]), Math.abs(b.box[3]))
  )
  return Math.max(dLat * 110_000, dLng * 111_000 * Math.cos((highest * Math.PI) / 180))
}

/** `boxGapMeters` of two events: never more than `gapMeters` of them. */
export const gapLowerBound = (a: LinkSubject, b: LinkSubject) => boxGapMeters(shapeOf(a), shapeOf(b))

const lineFeature = (coordinates: Array<Position>): Feature<LineString> => ({
  type: "Feature",
  properties: {},
  geometry: { type: "LineString", coordinates }
})

/**
 * The gap between two events' shapes in metres: 0 when they touch or overlap. Every vertex of
 * one is measured to every line of the other (and point to point), which is exact for shapes
 * that run along one road, the only ones linking compares.
 */
export const gapMeters = (a: LinkSubject, b: LinkSubject): number => {
  const sa = shapeOf(a)
  const sb = shapeOf(b)
  let best = Number.POSITIVE_INFINITY
  const vertices = (s: typeof sa) => [...s.points, ...s.lines.flat()]
  const measure = (from: typeof sa, to: typeof sb) => {
    const lines = to.lines.map(lineFeature)
    for (const v of vertices(from)) {
      const p = point(v)
      for (const l of lines) best = Math.min(best, pointToLineDistance(p, l, { units: "meters" }))
      for (const q of to.points) best = Math.min(best, distance(p, point(q), { units: "meters" }))
      if (best === 0) return
    }
  }
  measure(sa, sb)
  if (best > 0) measure(sb, sa)
  return best
}

const round = (x: number) => Math.round(x * 100) / 100

/**
 * Whether two reports from different sources describe one real-world event: same
 * road, directions that do not contradict, times that overlap, compatible types and causes, and shapes
 * within `maxGapM` of each other along the road. Null when any test fails. The confidence starts
 * at 1 and loses a little for what is only compatible rather than equal, and for distance.
 */
export const judgePair = (a: LinkSubject, b: LinkSubject, maxGapM: number): LinkJudgement | null => {
  if (a.id === b.id || a.source === b.source) return null
  const shared = a.road_keys.filter((k) => b.road_keys.includes(k))
  if (shared.length === 0) return null
  if (!compatibleDirections(a.direction, b.direction)) return null
  if (!compatibleTypes(a.type, b.type) || !compatibleCauses(a.cause, b.cause)) return null
  if (!overlappingTimes(a, b)) return null
  if (boxGapMeters(shapeOf(a), shapeOf(b)) > maxGapM) return null
  const gap = gapMeters(a, b)
  if (!(gap <= maxGapM)) return null
  const sameDirection = a.direction !== null && a.direction === b.direction
  const confidence =
    (a.type === b.type ? 1 : 0.85) * (sameDirection ? 1 : 0.85) * (1 - 0.4 * (maxGapM > 0 ? gap / maxGapM : 0))
  const direction = sameDirection ? a.direction : `${a.direction ?? "unstated"} / ${b.direction ?? "unstated"}`
  const types = a.type === b.type ? a.type : `${a.type} / ${b.type}`
  return {
    reason: `same road ${shared[0]} (${direction}), ${Math.round(gap)} m apart, overlapping times, ${types}`,
    confidence: round(confidence)
  }
}
