import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import { createGunzip } from "node:zlib"

/**
 * One poll of one truck-parking site, as the TPIMS history files and the pipeline's stored
 * readings give it. `available` is a count the site vouched for (trusted and numeric); `low` is
 * the feeds' "LOW" (fewer free than the site's threshold, count not given).
 */
export interface ParkingReading {
  /** `STATE:site_id`, e.g. "IN:301" */
  readonly site: string
  /** when the reading was taken (ms since the epoch): the poll time, the only time every row has */
  readonly at: number
  readonly available: number | null
  readonly low: boolean
  readonly capacity: number | null
  /** FILLING, CLEARING or STEADY when the feed says; null otherwise */
  readonly trend: "FILLING" | "CLEARING" | "STEADY" | null
}

/** Feature types whose properties carry a TPIMS count (Indiana publishes its lots as rest areas). */
export const PARKING_TYPES: ReadonlySet<string> = new Set(["truck_parking", "rest_areas"])

/** A site's key in the forecaster: its state (the feature's jurisdiction) and the feed's site id. */
export const siteKey = (state: string, siteId: string) => `${state.trim().toUpperCase()}:${siteId.trim()}`

const COLUMNS = ["polled_at_utc", "state", "site_id", "reported_available", "capacity", "trend", "trust_data"] as const

/** The column positions of a history file's header; an error names a missing column. */
export const headerOf = (line: string) => {
  const names = line.trim().split(",")
  const at = Object.fromEntries(COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<(typeof COLUMNS)[number], number>
  const missing = COLUMNS.filter((c) => at[c] < 0)
  if (missing.length > 0) throw new Error(`not a truck-parking history file: no ${missing.join(", ")} column`)
  return at
}

const TRENDS = new Set(["FILLING", "CLEARING", "STEADY"])

/**
 * A row of a history file, or null when it says nothing usable (no site, no time). An untrusted
 * row keeps its time but no count: the site itself said the count is not to be relied on.
 */
export const readingOf = (at: ReturnType<typeof headerOf>, line: string): ParkingReading | null => {
  const f = line.split(",")
  const state = f[at.state] ?? ""
  const siteId = f[at.site_id] ?? ""
  const time = Date.parse(f[at.polled_at_utc] ?? "")
  if (state.trim() === "" || siteId.trim() === "" || Number.isNaN(time)) return null
  const raw = (f[at.reported_available] ?? "").trim()
  const trusted = (f[at.trust_data] ?? "").trim().toLowerCase() === "true"
  const count = /^\d+$/.test(raw) ? Number(raw) : null
  const cap = /^\d+$/.test((f[at.capacity] ?? "").trim()) ? Number(f[at.capacity]) : null
  const trend = (f[at.trend] ?? "").trim().toUpperCase()
  return {
    site: siteKey(state, siteId),
    at: time,
    available: trusted ? count : null,
    low: trusted && raw.toUpperCase() === "LOW",
    capacity: cap !== null && cap > 0 ? cap : null,
    trend: TRENDS.has(trend) ? (trend as ParkingReading["trend"]) : null
  }
}

/** Readings by site, each site's oldest first. */
export const readingsBySite = (rs: Iterable<ParkingReading>) => {
  const out = new Map<string, Array<ParkingReading>>()
  for (const r of rs) {
    const list = out.get(r.site)
    if (list === undefined) out.set(r.site, [r])
    else list.push(r)
  }
  for (const list of out.values()) list.sort((a, b) => a.at - b.at)
  return out
}

/** Every reading of a history file (CSV, gzip-compressed when its name ends in .gz), streamed. */
export const readHistoryFile = async (path: string): Promise<Array<ParkingReading>> => {
  const source = createReadStream(path)
  const lines = createInterface({
    input: path.endsWith(".gz") ? source.pipe(createGunzip()) : source,
    crlfDelay: Infinity
  })
  const out: Array<ParkingReading> = []
  let header: ReturnType<typeof headerOf> | null = null
  for await (const line of lines) {
    if (line.trim() === "") continue
    if (header === null) {
      header = headerOf(line)
      continue
    }
    const r = readingOf(header, line)
    if (r !== null) out.push(r)
  }
  if (header === null) throw new Error(`${path}: empty file`)
  return out
}
