import { readFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"
import { localSlot, SLOTS_PER_DAY } from "../../../shared/parking/localSlot.js"
import { headerOf, readingOf, siteKey } from "../../../shared/parking/readings.js"
import { BUNDLED_PARKING_HISTORY } from "../../parking/bundledHistory.js"

/**
 * The demo's truck-parking lots are real Illinois sites whose counts are replayed from the bundled
 * July 2026 history at the same local weekday and quarter hour as now, so the lots fill and empty
 * as they really do and the forecaster (seeded from that history) knows them from the first minute.
 */
export const REPLAYED_SITES = [
  {
    siteId: "IL00074IE011400005",
    name: "Mackinaw Dells",
    highway: "I-74",
    referencePost: "114.0",
    direction: "E",
    latitude: 40.612499794461826,
    longitude: -89.24503950234022,
    city: "Congerville",
    capacity: 25
  },
  {
    siteId: "IL00070IW014900008",
    name: "Cumberland Road",
    highway: "I-70",
    referencePost: "149.0",
    direction: "W",
    latitude: 39.422816417115,
    longitude: -87.6616715332597,
    city: "",
    capacity: 39
  }
] as const

const WEEK_SLOTS = 7 * SLOTS_PER_DAY

/** Per site, the trusted counts of each quarter hour of the week (the latest July week that has one). */
const loadWeeks = () => {
  const lines = gunzipSync(readFileSync(BUNDLED_PARKING_HISTORY)).toString("utf8").split("\n")
  const header = headerOf(lines[0])
  const wanted = new Set(REPLAYED_SITES.map((s) => siteKey("IL", s.siteId)))
  const weeks = new Map<string, Array<number | undefined>>()
  for (const key of wanted) weeks.set(key, new Array<number | undefined>(WEEK_SLOTS))
  for (const line of lines.slice(1)) {
    if (line === "" || !wanted.has(`IL:${line.split(",")[2]}`)) continue
    const r = readingOf(header, line)
    if (r === null || r.available === null) continue
    const { weekday, slot } = localSlot(r.site, r.at)
    weeks.get(r.site)![weekday * SLOTS_PER_DAY + slot] = r.available
  }
  return weeks
}

let weeks: Map<string, Array<number | undefined>> | undefined

/** The count the site had in July at this local weekday and quarter hour (the nearest earlier one it reported). */
export const replayedCount = (siteId: string, at: number): number | undefined => {
  weeks ??= loadWeeks()
  const week = weeks.get(siteKey("IL", siteId))
  if (week === undefined) return undefined
  const { weekday, slot } = localSlot(siteKey("IL", siteId), at)
  const here = weekday * SLOTS_PER_DAY + slot
  for (let back = 0; back < WEEK_SLOTS; back++) {
    const v = week[(here - back + WEEK_SLOTS) % WEEK_SLOTS]
    if (v !== undefined) return v
  }
  return undefined
}
