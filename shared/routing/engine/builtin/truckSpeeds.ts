import { existsSync } from "node:fs"
import { join } from "node:path"
import { haversineM } from "../../../geo/distance.js"
import { readCsv } from "../../network/csv.js"
import type { RoadNetwork } from "../../network/NetworkFile.js"
import { ROAD_CLASSES, type RoadClass } from "../../network/RoadLine.js"

/**
 * Climbing: the speed at which a truck's power just lifts its weight, v = P / (m g (G + Cr)).
 * 280 kW reaches the wheels of a typical 330 kW (450 hp) tractor; Cr is tyre rolling resistance.
 * A 36 t truck: 43 km/h on 6 %, 61 km/h on 4 %.
 */
const WHEEL_POWER_W = 280_000
const ROLLING = 0.007
const G = 9.81
/** Descending: trucks come down in a low gear under posted truck limits, about 8 km/h less per percent. */
const descentKmh = (gradePct: number) => Math.max(40, 105 - 8 * gradePct)

/**
 * km/h a truck of this weight keeps over a listed grade. The table does not say which way is up,
 * so a section is timed as the mean of climbing it and coming down it: over a pass, the two sides
 * add up right.
 */
export const gradeSpeedKmh = (gradePct: number, weightT: number) => {
  const climb = (WHEEL_POWER_W / (weightT * 1000 * G * (gradePct / 100 + ROLLING))) * 3.6
  const down = descentKmh(gradePct)
  return 2 / (1 / climb + 1 / down)
}

export interface UrbanArea {
  readonly name: string
  readonly lat: number
  readonly lng: number
  readonly radius_km: number
}

export interface Grade {
  readonly ref: string
  readonly name: string
  readonly from: readonly [number, number]
  readonly to: readonly [number, number]
  readonly grade_pct: number
}

export interface SpeedTables {
  /**
   * share of the truck's governor it plans on per class (speeds.csv `governor_share`): cruise
   * control sits a little under it on freeways; on two-lane roads slower traffic and no passing
   * keep it further under
   */
  readonly governorShare: Readonly<Record<RoadClass, number>>
  /** share of the open-road speed a class keeps inside a town */
  readonly urbanShare: Readonly<Record<RoadClass, number>>
  readonly urbanAreas: ReadonlyArray<UrbanArea>
  readonly grades: ReadonlyArray<Grade>
}

const allOne = () => Object.fromEntries(ROAD_CLASSES.map((c) => [c, 1])) as Record<RoadClass, number>

/** A table's rows, none when the data dir leaves it out (a deployment's own dir may hold tolls only). */
const rowsOf = (path: string) => (existsSync(path) ? readCsv(path) : [])

/** The tables of a routing data dir: speeds.csv's shares, urban_areas.csv and grades.csv. */
export const readTruckSpeedTables = (dir: string): SpeedTables => {
  const urbanShare = allOne()
  const governorShare = allOne()
  for (const r of rowsOf(join(dir, "speeds.csv"))) {
    if (r.urban_share) urbanShare[r.class as RoadClass] = Number(r.urban_share)
    if (r.governor_share) governorShare[r.class as RoadClass] = Number(r.governor_share)
  }
  return {
    governorShare,
    urbanShare,
    urbanAreas: rowsOf(join(dir, "urban_areas.csv")).map((r) => ({
      name: r.name,
      lat: Number(r.lat),
      lng: Number(r.lng),
      radius_km: Number(r.radius_km)
    })),
    grades: rowsOf(join(dir, "grades.csv")).map((r) => ({
      ref: r.ref,
      name: r.name,
      from: [Number(r.from_lat), Number(r.from_lng)],
      to: [Number(r.to_lat), Number(r.to_lng)],
      grade_pct: Number(r.grade_pct)
    }))
  }
}

/** A listed grade covers the route's pieces within this distance of the line between its ends. */
export const GRADE_CORRIDOR_M = 5_000

/** Metres from a point to the segment a–b, on a local flat projection (fine at tens of kilometres). */
const metresToChord = (lat: number, lng: number, a: readonly [number, number], b: readonly [number, number]) => {
  const k = Math.cos((lat * Math.PI) / 180)
  const [ax, ay, bx, by, px, py] = [a[1] * k, a[0], b[1] * k, b[0], lng * k, lat]
  const [dx, dy] = [bx - ax, by - ay]
  const len2 = dx * dx + dy * dy
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0
  return haversineM(lat, lng, ay + t * dy, (ax + t * dx) / k)
}

/**
 * What the network knows slows a truck, per edge: the share of its length in towns (inside an
 * urban area's circle) and on a listed grade (the steepest it meets), judged piece by piece of
 * its shape, since one edge may run 80 km between junctions with a pass in the middle.
 */
export interface EdgeSlowdowns {
  readonly urbanShare: Float32Array
  readonly gradeShare: Float32Array
  readonly gradePct: Float32Array
  /** the seconds of each edge that are not driving: junction delays */
  readonly delayS: Float64Array
}

export const edgeSlowdowns = (net: RoadNetwork, tables: Pick<SpeedTables, "urbanAreas" | "grades">): EdgeSlowdowns => {
  const n = net.edgeCount
  const urbanShare = new Float32Array(n)
  const gradeShare = new Float32Array(n)
  const gradePct = new Float32Array(n)
  const delayS = new Float64Array(n)
  // urban areas on a one-degree grid: each piece looks only at the circles near it
  const cells = new Map<string, Array<UrbanArea>>()
  for (const a of tables.urbanAreas) {
    const reach = a.radius_km / 80 + 1
    for (let la = Math.floor(a.lat - reach); la <= Math.floor(a.lat + reach); la++)
      for (let lo = Math.floor(a.lng - reach * 1.5); lo <= Math.floor(a.lng + reach * 1.5); lo++) {
        const key = `${la},${lo}`
        const list = cells.get(key) ?? []
        list.push(a)
        cells.set(key, list)
      }
  }
  const inTown = (lat: number, lng: number) =>
    (cells.get(`${Math.floor(lat)},${Math.floor(lng)}`) ?? []).some(
      (a) => haversineM(lat, lng, a.lat, a.lng) <= a.radius_km * 1000
    )
  const { shapeLat, shapeLng, shapeStart } = net
  for (let e = 0; e < n; e++) {
    const props = net.props[net.edgeProp[e]]
    delayS[e] = net.edgeSeconds[e] - net.edgeLengthM[e] / (props.speed_kph / 3.6)
    const refs = props.ref?.split(";") ?? []
    const grades = tables.grades.filter((g) => refs.includes(g.ref))
    let [all, urban, graded] = [0, 0, 0]
    for (let j = shapeStart[e] + 1; j < shapeStart[e + 1]; j++) {
      const m = haversineM(shapeLat[j - 1], shapeLng[j - 1], shapeLat[j], shapeLng[j])
      const [lat, lng] = [(shapeLat[j - 1] + shapeLat[j]) / 2, (shapeLng[j - 1] + shapeLng[j]) / 2]
      all += m
      let onGrade = false
      for (const g of grades)
        if (metresToChord(lat, lng, g.from, g.to) <= GRADE_CORRIDOR_M) {
          gradePct[e] = Math.max(gradePct[e], g.grade_pct)
          onGrade = true
        }
      if (onGrade) graded += m
      else if (inTown(lat, lng)) urban += m
    }
    if (all > 0) [urbanShare[e], gradeShare[e]] = [urban / all, graded / all]
  }
  return { urbanShare, gradeShare, gradePct, delayS }
}

/** The truck fields its speed depends on. */
export interface SpeedTruck {
  readonly max_speed_kmh: number
  readonly weight_t: number
}

/**
 * Seconds a truck drives edge e, junction delays aside: the road's planning speed, or the class's
 * share of the truck's governor where that is lower; slower over the part in towns and the part
 * on a grade.
 */
export const edgeDriveSeconds = (
  net: RoadNetwork,
  slow: EdgeSlowdowns,
  tables: Pick<SpeedTables, "urbanShare" | "governorShare">,
  truck: SpeedTruck,
  e: number
) => {
  const props = net.props[net.edgeProp[e]]
  const m = net.edgeLengthM[e]
  if (props.ferry) return m / (props.speed_kph / 3.6)
  const v = Math.min(props.speed_kph, tables.governorShare[props.class] * truck.max_speed_kmh) / 3.6
  const [urban, graded] = [slow.urbanShare[e], slow.gradeShare[e]]
  let s = (m * (1 - urban - graded)) / v
  if (urban > 0) s += (m * urban) / (v * tables.urbanShare[props.class])
  if (graded > 0) s += (m * graded) / Math.min(v, gradeSpeedKmh(slow.gradePct[e], truck.weight_t) / 3.6)
  return s
}

/** Trucks told apart by their speed: the governor to the km/h, the weight to the half tonne. */
const CACHED_TRUCKS = 16

/**
 * Each edge's drive seconds for a truck, worked out once per kind of truck (a hundred thousand
 * edges take a millisecond or two) and kept for the next request with the same one. Never less than
 * the network's own edge seconds, so its landmark bounds stay lower bounds.
 */
export class TruckTimes {
  private readonly cache = new Map<string, Float64Array>()
  constructor(
    private readonly net: RoadNetwork,
    private readonly slow: EdgeSlowdowns,
    private readonly tables: Pick<SpeedTables, "urbanShare" | "governorShare">
  ) {}

  secondsFor(truck: SpeedTruck): Float64Array {
    const key = `${Math.round(truck.max_speed_kmh)}|${Math.round(truck.weight_t * 2) / 2}`
    let s = this.cache.get(key)
    if (s) {
      this.cache.delete(key)
      this.cache.set(key, s)
      return s
    }
    const t = { max_speed_kmh: Math.round(truck.max_speed_kmh), weight_t: Math.round(truck.weight_t * 2) / 2 }
    const { net, slow } = this
    s = new Float64Array(net.edgeCount)
    for (let e = 0; e < s.length; e++)
      s[e] = Math.max(net.edgeSeconds[e], edgeDriveSeconds(net, slow, this.tables, t, e) + slow.delayS[e])
    this.cache.set(key, s)
    if (this.cache.size > CACHED_TRUCKS) this.cache.delete(this.cache.keys().next().value!)
    return s
  }
}

/** A network with nothing known to slow a truck but its governor (test networks, an OSM import without tables). */
export const NO_SLOWDOWN_TABLES: SpeedTables = {
  governorShare: allOne(),
  urbanShare: allOne(),
  urbanAreas: [],
  grades: []
}
