import { readFileSync, statSync, writeFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"
import { RoadGraph } from "../../shared/routing/engine/builtin/RoadGraph.js"
import { metresToSegment } from "../../shared/geo/distance.js"
import { encodeNetwork, type NetworkFile, RoadNetwork } from "../../shared/routing/network/NetworkFile.js"
import type { LimitField, RoadProps } from "../../shared/routing/network/RoadLine.js"

/**
 * `network import-clearances`: the FHWA National Bridge Inventory's delimited file (one record
 * per structure and inventory route, comma-separated, text in single quotes, a header row of item
 * names such as STRUCTURE_NUMBER_008) onto a network file's edges. Read: items 1 (state), 8
 * (structure number), 5A/5B/5D (on or under, route prefix and number), 16/17 (position), 10
 * (minimum vertical clearance of the inventory route), 43B (design: 18 is a tunnel), 54A/54B
 * (underclearance and what it is over), 64 (operating rating, tonnes). Item 66, the inventory
 * rating, is not used: the operating rating is the load a truck may cross at.
 *
 * A record limits the edge of its inventory route nearest its position (within `radiusM`):
 * item 10 below 99.99 m as a height limit, on the route carried (5A = 1, a through truss) or
 * the route passing under (5A = 2 and A–Z), or item 54B where 54A says a highway passes under a
 * structure of that route; item 64 below the 36 t of the HS20 design truck as a gross weight
 * limit on the route carried; a tunnel (43B = 18) marks its route's edge a tunnel. The limit holds on the whole
 * network edge (junction to junction)
 * the structure stands on, with its provenance ("NBI IA 000000000012345 item 10, 2024-12-31").
 */

/** FIPS state codes (item 1's first two digits) → postal codes */
const FIPS: Record<string, string> = {
  "01": "AL",
  "02": "AK",
  "04": "AZ",
  "05": "AR",
  "06": "CA",
  "08": "CO",
  "09": "CT",
  "10": "DE",
  "11": "DC",
  "12": "FL",
  "13": "GA",
  "15": "HI",
  "16": "ID",
  "17": "IL",
  "18": "IN",
  "19": "IA",
  "20": "KS",
  "21": "KY",
  "22": "LA",
  "23": "ME",
  "24": "MD",
  "25": "MA",
  "26": "MI",
  "27": "MN",
  "28": "MS",
  "29": "MO",
  "30": "MT",
  "31": "NE",
  "32": "NV",
  "33": "NH",
  "34": "NJ",
  "35": "NM",
  "36": "NY",
  "37": "NC",
  "38": "ND",
  "39": "OH",
  "40": "OK",
  "41": "OR",
  "42": "PA",
  "44": "RI",
  "45": "SC",
  "46": "SD",
  "47": "TN",
  "48": "TX",
  "49": "UT",
  "50": "VT",
  "51": "VA",
  "53": "WA",
  "54": "WV",
  "55": "WI",
  "56": "WY",
  "72": "PR"
}

/** the HS20 design truck: a rating below it limits gross weight */
const DESIGN_TRUCK_T = 36
const NO_LIMIT_M = 99.99

/** One line of a delimited NBI file: commas outside single quotes. */
export const splitNbiLine = (line: string): Array<string> => {
  const cells: Array<string> = []
  let cell = ""
  let quoted = false
  for (const ch of line) {
    if (ch === "'") quoted = !quoted
    else if (ch === "," && !quoted) {
      cells.push(cell.trim())
      cell = ""
    } else cell += ch
  }
  cells.push(cell.trim())
  return cells
}

/** DDMMSSss (latitude) or DDDMMSSss (longitude, west positive) → decimal degrees */
const dms = (v: string, degreeDigits: number) => {
  if (!/^\d+$/.test(v) || v.length !== degreeDigits + 6) return undefined
  const d = Number(v.slice(0, degreeDigits))
  const m = Number(v.slice(degreeDigits, degreeDigits + 2))
  const s = Number(v.slice(degreeDigits + 2)) / 100
  return m < 60 && s < 60 ? d + m / 60 + s / 3600 : undefined
}

/**
 * The network's name for an inventory route: I-80, US30, IA1 (Travel Mapping's spelling); undefined for county and
 * city roads.
 */
const refOf = (prefix: string, number: string, state: string) => {
  const n = String(Number(number))
  if (!/^\d+$/.test(number) || n === "0") return undefined
  return prefix === "1" ? `I-${n}` : prefix === "2" ? `US${n}` : prefix === "3" ? `${state}${n}` : undefined
}

export interface NbiLimit {
  readonly structure: string
  readonly state: string
  readonly ref: string
  readonly lat: number
  readonly lng: number
  readonly field: "max_height_m" | "max_weight_t" | "tunnel"
  readonly value: number
  readonly item: string
}

/** The limits a file's records carry, and why the others carry none. */
export const readNbiLimits = (text: string) => {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "")
  const header = splitNbiLine(lines[0] ?? "")
  const col = (name: string) => {
    const i = header.findIndex((h) => h === name || h.endsWith(`_${name}`))
    if (i < 0)
      throw new Error(`the file has no NBI item ${name} column (is it the delimited format with a header row?)`)
    return i
  }
  const c = {
    state: col("001"),
    structure: col("008"),
    record: col("005A"),
    prefix: col("005B"),
    number: col("005D"),
    lat: col("016"),
    lng: col("017"),
    clearance: col("010"),
    design: col("043B"),
    underRef: col("054A"),
    under: col("054B"),
    operating: col("064")
  }
  const limits: Array<NbiLimit> = []
  const refused: Record<string, number> = {}
  const refuse = (why: string) => {
    refused[why] = (refused[why] ?? 0) + 1
  }
  for (const line of lines.slice(1)) {
    const r = splitNbiLine(line)
    if (r.length < header.length) {
      refuse("short record")
      continue
    }
    const state = FIPS[r[c.state].padStart(3, "0").slice(0, 2)]
    const lat = dms(r[c.lat], 2)
    const lngW = dms(r[c.lng], 3)
    if (!state) {
      refuse("unknown state code")
      continue
    }
    if (lat === undefined || lngW === undefined || lat === 0) {
      refuse("no usable position (items 16/17)")
      continue
    }
    const ref = refOf(r[c.prefix], r[c.number], state)
    if (!ref) {
      refuse("not an Interstate, US or state route (item 5B)")
      continue
    }
    const base = { structure: r[c.structure], state, ref, lat, lng: -lngW }
    const on = r[c.record] === "1"
    const clearance = Number(r[c.clearance])
    const before = limits.length
    if (Number.isFinite(clearance) && clearance > 0 && clearance < NO_LIMIT_M)
      limits.push({ ...base, field: "max_height_m", value: clearance, item: "10" })
    else if (!on && r[c.underRef] === "H" && Number(r[c.under]) > 0 && Number(r[c.under]) < NO_LIMIT_M)
      limits.push({ ...base, field: "max_height_m", value: Number(r[c.under]), item: "54B" })
    const rating = Number(r[c.operating])
    if (on && Number.isFinite(rating) && rating > 0 && rating < DESIGN_TRUCK_T)
      limits.push({ ...base, field: "max_weight_t", value: rating, item: "64" })
    // item 43B 18: the route runs through a tunnel (avoid: tunnel keeps off it)
    if (on && r[c.design] === "18") limits.push({ ...base, field: "tunnel", value: 1, item: "43" })
    if (limits.length === before) refuse("no height or weight limit, not a tunnel")
  }
  return { records: lines.length - 1, limits, refused }
}

/** "US-2", "US 2" and "US2" are one route: networks spell refs their own way */
const sameRoute = (a: string, b: string) =>
  a.replace(/[\s-]/g, "").toUpperCase() === b.replace(/[\s-]/g, "").toUpperCase()

/** metres from a point to edge e's line */
const metresToEdge = (net: RoadNetwork, e: number, lat: number, lng: number) => {
  let best = Infinity
  for (let j = net.shapeStart[e] + 1; j < net.shapeStart[e + 1]; j++) {
    best = Math.min(
      best,
      metresToSegment(lat, lng, net.shapeLat[j - 1], net.shapeLng[j - 1], net.shapeLat[j], net.shapeLng[j])
    )
  }
  return best
}

/**
 * shape points lie up to this far apart on Travel Mapping's lines: candidates are sought this wide, then measured
 * exactly
 */
const CANDIDATE_M = 25_000

export const importClearances = (
  input: string,
  networkIn: string,
  out: string,
  options: { radiusM: number; asOf?: string }
) => {
  const t0 = Date.now()
  const asOf = options.asOf ?? statSync(input).mtime.toISOString().slice(0, 10)
  const { records, limits, refused } = readNbiLimits(readFileSync(input, "utf8"))
  const file = JSON.parse(gunzipSync(readFileSync(networkIn)).toString("utf8")) as NetworkFile
  const net = new RoadNetwork(file)
  const graph = new RoadGraph(net)
  const props = [...file.props]
  const prop = [...file.edges.prop]
  const interned = new Map<string, number>()
  let matched = 0
  const unmatched: Array<string> = []
  for (const l of limits) {
    const near = graph
      .edgesNear(l.lat, l.lng, CANDIDATE_M)
      .filter((e) => props[prop[e]].ref?.split(";").some((ref) => sameRoute(ref, l.ref)))
      .map((e) => ({ e, m: metresToEdge(net, e, l.lat, l.lng) }))
      .filter((x) => x.m <= options.radiusM)
      .sort((a, b) => a.m - b.m)
    if (near.length === 0) {
      unmatched.push(`${l.state} ${l.structure} (${l.ref})`)
      continue
    }
    matched++
    const e = near[0].e
    const p: RoadProps = props[prop[e]]
    const source = `NBI ${l.state} ${l.structure} item ${l.item}, ${asOf}`
    let next: RoadProps
    if (l.field === "tunnel") {
      if (p.tunnel) continue
      next = { ...p, tunnel: true }
    } else {
      const current = p[l.field]
      if (current !== null && current <= l.value) continue
      next = {
        ...p,
        [l.field]: l.value,
        restriction_sources: { ...(p.restriction_sources ?? {}), [l.field as LimitField]: source }
      }
    }
    const key = JSON.stringify(next)
    let k = interned.get(key)
    if (k === undefined) {
      k = props.push(next) - 1
      interned.set(key, k)
    }
    prop[e] = k
  }
  const updated: NetworkFile = {
    ...file,
    props,
    edges: { ...file.edges, prop },
    meta: {
      ...file.meta,
      source: `${file.meta.source}; clearances and ratings from the National Bridge Inventory (${input}, ${asOf})`
    }
  }
  const buf = encodeNetwork(updated)
  writeFileSync(out, buf)
  return {
    records,
    limits: limits.length,
    matched,
    unmatched,
    refused,
    asOf,
    bytes: buf.length,
    seconds: (Date.now() - t0) / 1000
  }
}
