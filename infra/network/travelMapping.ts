import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { FREE_ROAD, type RoadClass, type RoadLine, type RoadProps } from "../../shared/routing/network/RoadLine.js"
import { haversineM, metresToSegment } from "../../shared/geo/distance.js"
import { readCsv } from "../../shared/routing/network/csv.js"
import { isLinkRow } from "./linkTolls.js"

/** One route file of ../shared/data/travelmapping/routes_us_ca.ndjson.gz */
interface TmRoute {
  readonly region: string
  readonly system: string
  readonly root: string
  readonly route: string
  readonly banner: string | null
  readonly city: string | null
  readonly points: ReadonlyArray<readonly [string, number, number]>
}

export const readTravelMapping = (dir: string): Array<TmRoute> =>
  gunzipSync(readFileSync(join(dir, "routes_us_ca.ndjson.gz")))
    .toString("utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as TmRoute)

/** A data-table row that applies to a route, or to the stretch between two of its waypoint labels. */
interface Stretch {
  readonly match: string
  readonly from_label: string
  readonly to_label: string
}

/**
 * A structure in the water (a bridge's or tunnel's mid-span, `near:lat,lng,metres`) is found by
 * position on whichever route crosses it: Travel Mapping's waypoints sit at the interchanges on
 * either side, so the straight segment between them passes over the mid-span.
 */
const nearOf = (match: string) => {
  if (!match.startsWith("near:")) return undefined
  const [lat, lng, radius] = match.slice(5).split(",").map(Number)
  if (![lat, lng, radius].every(Number.isFinite)) throw new Error(`${match}: near takes lat,lng,metres`)
  return { lat, lng, radius }
}

const nearSegments = (near: { lat: number; lng: number; radius: number }, r: TmRoute) =>
  r.points
    .slice(1)
    .flatMap((p, k) =>
      metresToSegment(near.lat, near.lng, r.points[k][1], r.points[k][2], p[1], p[2]) <= near.radius ? [k] : []
    )

const matches = (row: Stretch, r: TmRoute) => {
  const near = nearOf(row.match)
  return near ? nearSegments(near, r).length > 0 : row.match === `system:${r.system}` || row.match === `root:${r.root}`
}

/** Indexes of the segments (point k to k + 1) a row covers; a label missing from the route is a data error. */
const segmentRange = (row: Stretch, r: TmRoute): [number, number] => {
  const near = nearOf(row.match)
  if (near) {
    const ks = nearSegments(near, r)
    return [Math.min(...ks), Math.max(...ks) + 1]
  }
  if (row.from_label === "" && row.to_label === "") return [0, r.points.length - 1]
  const at = (label: string) => {
    const i = r.points.findIndex((p) => p[0] === label)
    if (i < 0) throw new Error(`${row.match}: no waypoint labelled ${label}`)
    return i
  }
  const [a, b] = [at(row.from_label), at(row.to_label)]
  return [Math.min(a, b), Math.max(a, b)]
}

/**
 * A class's planning speed: a share of the region's posted truck limit, or a fixed figure where the region has none.
 */
interface ClassSpeed {
  readonly share: number
  readonly speed_kph: number
}

/** Posted truck limits of a state or province (truck_speed_limits.csv), km/h. */
interface TruckLimits {
  readonly freeway_kph: number
  readonly highway_kph: number
}

const KPH_PER_MPH = 1.609344

export interface TravelMappingTables {
  readonly speeds: ReadonlyMap<RoadClass, ClassSpeed>
  readonly limits: ReadonlyMap<string, TruckLimits>
  readonly systems: ReadonlyMap<string, { use: string; class: RoadClass }>
  readonly tiers: ReadonlyMap<string, number>
  /** toll rows on routes' stretches */
  readonly tolls: ReadonlyArray<Stretch & { toll: string }>
  /** toll rows on junction links (`link:…`, linkTolls.ts) */
  readonly linkTolls: ReadonlyArray<Stretch & { toll: string }>
  readonly restrictions: ReadonlyArray<
    Stretch & { field: string; value: string; structure: string; publication: string; as_of: string }
  >
}

/** The planning speeds per class (speeds.csv) and the posted truck limits per region (truck_speed_limits.csv). */
export const readSpeedTables = (dataDir: string): Pick<TravelMappingTables, "speeds" | "limits"> => ({
  speeds: new Map(
    readCsv(join(dataDir, "speeds.csv")).map((r) => [
      r.class as RoadClass,
      { share: Number(r.share), speed_kph: Number(r.speed_kph) }
    ])
  ),
  limits: new Map(
    readCsv(join(dataDir, "truck_speed_limits.csv")).map((r) => {
      const k = r.unit === "mph" ? KPH_PER_MPH : r.unit === "km/h" ? 1 : Number.NaN
      if (Number.isNaN(k))
        throw new Error(`truck_speed_limits.csv: ${r.region}: unit ${r.unit} is neither mph nor km/h`)
      return [r.region, { freeway_kph: Number(r.freeway) * k, highway_kph: Number(r.highway) * k }]
    })
  )
})

export const readTables = (tmDir: string, dataDir: string): TravelMappingTables => {
  const tolls = readCsv(join(dataDir, "tolls.csv")) as unknown as TravelMappingTables["tolls"]
  return {
    ...readSpeedTables(dataDir),
    systems: new Map(
      readCsv(join(dataDir, "systems.csv")).map((r) => [r.system, { use: r.use, class: r.class as RoadClass }])
    ),
    tiers: new Map(readCsv(join(tmDir, "systems_us_ca.csv")).map((r) => [r.System, Number(r.Tier)])),
    tolls: tolls.filter((row) => !isLinkRow(row)),
    linkTolls: tolls.filter(isLinkRow),
    restrictions: readCsv(join(dataDir, "restrictions.csv")) as unknown as TravelMappingTables["restrictions"]
  }
}

/** Systems without a row in systems.csv take their class from Travel Mapping's tier. */
const classOf = (system: string, t: TravelMappingTables): RoadClass | undefined => {
  const row = t.systems.get(system)
  if (row) return row.use === "exclude" ? undefined : row.class
  const tier = t.tiers.get(system)
  if (tier === undefined) return undefined // a system outside the published table (in development)
  return tier <= 1 ? "motorway" : tier <= 3 ? "trunk" : tier === 4 ? "primary" : "secondary"
}

/** The routes the network is built from (their system is not excluded), with their class. */
export const classedRoutes = (routes: ReadonlyArray<TmRoute>, t: TravelMappingTables) =>
  routes.flatMap((r) => {
    const cls = classOf(r.system, t)
    return cls === undefined || r.points.length < 2 ? [] : [{ route: r, cls }]
  })

/**
 * A truck's planning speed on a class of road in a region: a share of the region's posted truck
 * limit (freeways for motorways, rural highways for the rest; ferries are timed alike everywhere),
 * to one decimal; the class's fixed figure where the region has no row.
 */
export const planningSpeed = (
  t: Pick<TravelMappingTables, "speeds" | "limits">,
  region: string | null,
  cls: RoadClass
) => {
  const c = t.speeds.get(cls)!
  const limits = region === null ? undefined : t.limits.get(region)
  if (!limits || cls === "ferry") return c.speed_kph
  return Math.round((cls === "motorway" ? limits.freeway_kph : limits.highway_kph) * c.share * 10) / 10
}

/** A restrictions.csv row on a line: the limit, and where it comes from (structure, publication, date) kept with it. */
const restrict = (p: RoadProps, row: TravelMappingTables["restrictions"][number]): RoadProps => {
  const limit = (): Partial<RoadProps> => {
    switch (row.field) {
      case "truck_forbidden":
      case "hazmat_forbidden":
      case "tunnel":
        return { [row.field]: row.value === "true" }
      case "max_height_m":
      case "max_weight_t":
      case "max_length_m":
      case "max_axles": {
        const n = Number(row.value)
        if (!(n > 0))
          throw new Error(`restrictions.csv: ${row.match}: ${row.field} ${row.value} is not a positive number`)
        return { [row.field]: n }
      }
      case "tunnel_category":
        if (!["B", "C", "D", "E"].includes(row.value))
          throw new Error(`restrictions.csv: ${row.match}: tunnel_category ${row.value} is not B, C, D or E`)
        return { tunnel_category: row.value as RoadProps["tunnel_category"] }
      default:
        throw new Error(`restrictions.csv: unknown field ${row.field}`)
    }
  }
  // a tunnel flag alone is no limit: it needs no source on the edge
  if (row.field === "tunnel") return { ...p, ...limit() }
  const sources = {
    ...(p.restriction_sources ?? {}),
    [row.field]: `${row.structure}: ${row.publication}, ${row.as_of}`
  }
  return { ...p, ...limit(), restriction_sources: sources }
}

/** An exit number ("14", "88B"); not a grid road ("500N", "164W"), whose letter is a direction. */
const EXIT_LABEL = /^\d+[A-Z]?$/
const GRID_LABEL = /^\d+[NSEW]$/

/**
 * Per segment (point k to k + 1) of a route: whether the visible waypoints on either side of it
 * are both numbered exits. Travel Mapping labels a waypoint on a road with numbered interchanges
 * by its exit number and one at an at-grade junction by the crossing road's name, so a stretch
 * between two exits is a freeway however the route's system is classed (DE-1's turnpike, CA-99,
 * the Florida tollways are state routes). Hidden shaping points (`+X…`) are skipped; a leading
 * `*` (a label kept for old references) is read without it.
 */
export const exitStretches = (labels: ReadonlyArray<string>): Array<boolean> => {
  const exit = labels.map((l) => {
    const v = l.replace(/^\*/, "")
    return l.startsWith("+") ? undefined : EXIT_LABEL.test(v) && !GRID_LABEL.test(v)
  })
  // the nearest visible waypoint at or after each point
  const after: Array<boolean | undefined> = []
  for (let j = labels.length - 1, seen: boolean | undefined; j >= 0; j--) after[j] = seen = exit[j] ?? seen
  const out: Array<boolean> = []
  let before: boolean | undefined
  for (let k = 0; k + 1 < labels.length; k++) {
    before = exit[k] ?? before
    out.push(before === true && after[k + 1] === true)
  }
  return out
}

/**
 * The road lines of the Travel Mapping waypoints: one line per stretch of a route with the same
 * properties, class and speed from the tables, tolls and restrictions where a table row covers it.
 * Stretches between numbered exits of a route classed below motorway are motorways.
 */
export const travelMappingLines = (routes: ReadonlyArray<TmRoute>, t: TravelMappingTables): Array<RoadLine> => {
  const out: Array<RoadLine> = []
  const used = new Set<Stretch>()
  for (const r of routes) {
    const cls = classOf(r.system, t)
    if (cls === undefined || r.points.length < 2) continue
    const base: RoadProps = {
      ...FREE_ROAD,
      class: cls,
      speed_kph: planningSpeed(t, r.region, cls),
      region: r.region,
      ref: r.route + (r.banner ? ` ${r.banner}` : ""),
      name: r.city
    }
    const freeway: RoadProps = { ...base, class: "motorway", speed_kph: planningSpeed(t, r.region, "motorway") }
    const exits = cls === "motorway" || cls === "ferry" ? [] : exitStretches(r.points.map((p) => p[0]))
    const seg: Array<RoadProps> = r.points.slice(1).map((_p, k) => (exits[k] ? freeway : base))
    for (const row of t.tolls) {
      if (!matches(row, r)) continue
      used.add(row)
      const [a, b] = segmentRange(row, r)
      for (let k = a; k < b; k++) seg[k] = { ...seg[k], toll: row.toll }
    }
    for (const row of t.restrictions) {
      if (!matches(row, r)) continue
      used.add(row)
      const [a, b] = segmentRange(row, r)
      for (let k = a; k < b; k++) seg[k] = restrict(seg[k], row)
    }
    let start = 0
    for (let k = 1; k <= seg.length; k++) {
      if (k < seg.length && seg[k] === seg[k - 1]) continue
      out.push({ props: seg[start], coordinates: r.points.slice(start, k + 1).map((p) => [p[2], p[1]] as const) })
      start = k
    }
  }
  // a row that found no road (a renamed route, a mid-span off every line) would leave a toll or a limit off the
  // network unnoticed
  const unused = [...t.tolls, ...t.restrictions].filter((row) => !used.has(row))
  if (unused.length > 0)
    throw new Error(
      `rows that match no road: ${unused.map((row) => `${row.match} ${row.from_label}–${row.to_label}`).join(", ")}`
    )
  return out
}

/**
 * Posted length over measured length of the main Interstates in calibration.csv: the factor that
 * corrects for straight lines between waypoints cutting curves.
 */
export const lengthFactor = (routes: ReadonlyArray<TmRoute>, dataDir: string) => {
  const rows = readCsv(join(dataDir, "calibration.csv"))
  const measured = rows.map((row) =>
    routes
      .filter((r) => r.system === "usai" && r.route === row.route && r.banner === null)
      .reduce(
        (m, r) =>
          m + r.points.slice(1).reduce((s, p, i) => s + haversineM(r.points[i][1], r.points[i][2], p[1], p[2]), 0),
        0
      )
  )
  const posted = rows.map((row) => Number(row.posted_mi) * 1609.344)
  const factor = posted.reduce((a, b) => a + b, 0) / measured.reduce((a, b) => a + b, 0)
  return {
    factor,
    perRoute: rows.map((row, i) => ({
      route: row.route,
      posted_mi: Number(row.posted_mi),
      measured_mi: measured[i] / 1609.344
    }))
  }
}
