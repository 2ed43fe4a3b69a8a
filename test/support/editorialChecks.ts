import type { EventObservation } from "../../shared/domain/Event.js"
import type { FeatureObservation } from "../../shared/domain/Feature.js"
import { endBeforeStart, endTimePassed, publishedFlags } from "../../shared/domain/qualityFlags.js"

/**
 * What a careful editor would never let out, as checks over one published record: each returns
 * the defect classes it finds (empty when the record reads right). Written independently of the
 * editor's own rules, so a rule that stops working shows up here on real payloads.
 */

export type DefectClass =
  | "code_in_title"
  | "placeholder"
  | "milepost_code"
  | "agency_prefix"
  | "raw_lane_code"
  | "markup"
  | "untidy_text"
  | "title_too_long"
  | "empty_description"
  | "ended_shown_active"
  | "end_before_start_unflagged"
  | "not_scheduled_unflagged"
  | "closure_minor"
  | "stale_count_current"

export interface Defect {
  readonly kind: DefectClass
  readonly where: string
  readonly text: string
}

const PLACEHOLDER = /(^|[\s,(:;])(UNKNOWN|Unknown|unknown|NULL|null|undefined|N\/A|No Data|NO DATA)(?=$|[\s,.;)])/
const CAMEL_CODE = /\b[A-Z][a-z]+(?:[A-Z][a-z]+){2,}\b/
const RUN_TOGETHER = /\b(Road|Lane|Bridge|Shoulder)(construction|work|maintenance|closure|closed|repair)\b/i
const SNAKE_CODE = /\b[A-Z]{2,}_[A-Z_]{2,}\b|\b[a-z]+_[a-z_]+\b/
const KEBAB_LANE =
  /\b(?:all|some)-lanes-|\blanes?-(?:closed|open)\b|\b(?:shift|merge)-(?:left|right)\b|\balternating-one-way\b/
const MILEPOST_CODE = /\b\d{1,4}[NSEW]B?-\d{1,4}(?:\.\d+)?\b/
const AGENCY_PREFIX = /^[A-Z][A-Z0-9&./-]{1,11}\s*:\s/
const MARKUP = /<\/?[a-z][a-z0-9]*(\s[^<>]*)?\/?>|&(?:[a-z]+|#\d+|#x[0-9a-f]+);/i
const NOT_SCHEDULED = /\bnot (currently )?scheduled\b/i

const untidy = (s: string) => /\u00a0|\t|^\s|\s$| {2}/.test(s)

const textDefects = (where: string, text: string, out: Array<Defect>) => {
  if (PLACEHOLDER.test(text)) out.push({ kind: "placeholder", where, text })
  if (MILEPOST_CODE.test(text)) out.push({ kind: "milepost_code", where, text })
  if (MARKUP.test(text)) out.push({ kind: "markup", where, text })
  if (text.split("\n").some(untidy)) out.push({ kind: "untidy_text", where, text })
}

/** `feedTimeMs`: the time the feed speaks for (its own newest update time, else when it was read). */
export const eventDefects = (e: EventObservation, feedTimeMs: number): Array<Defect> => {
  const out: Array<Defect> = []
  textDefects("title", e.title, out)
  textDefects("description", e.description, out)
  if (e.lanes_affected !== null) textDefects("lanes_affected", e.lanes_affected, out)
  for (const r of e.affected_roads) textDefects("affected_roads", r, out)
  if (CAMEL_CODE.test(e.title) || RUN_TOGETHER.test(e.title) || SNAKE_CODE.test(e.title) || KEBAB_LANE.test(e.title)) {
    out.push({ kind: "code_in_title", where: "title", text: e.title })
  }
  if (AGENCY_PREFIX.test(e.title)) out.push({ kind: "agency_prefix", where: "title", text: e.title })
  if (e.lanes_affected !== null && KEBAB_LANE.test(e.lanes_affected))
    out.push({ kind: "raw_lane_code", where: "lanes_affected", text: e.lanes_affected })
  if (e.title.length > 160) out.push({ kind: "title_too_long", where: "title", text: e.title })
  if (e.description.trim() === "") out.push({ kind: "empty_description", where: "description", text: e.title })
  const flags = publishedFlags(e.quality_flags, e, feedTimeMs)
  if (e.status === "active" && endTimePassed(e, feedTimeMs) && !flags.includes("end_time_passed")) {
    out.push({ kind: "ended_shown_active", where: "quality_flags", text: `${e.end_time ?? e.estimated_end_time}` })
  }
  if (endBeforeStart(e) && !flags.includes("end_before_start"))
    out.push({ kind: "end_before_start_unflagged", where: "quality_flags", text: e.title })
  if ((NOT_SCHEDULED.test(e.title) || NOT_SCHEDULED.test(e.description)) && !flags.includes("not_scheduled")) {
    out.push({ kind: "not_scheduled_unflagged", where: "quality_flags", text: e.description })
  }
  if (
    e.severity === "minor" &&
    (e.type === "closure" ||
      /\ball lanes closed\b|\broad closed\b|closed in both directions/i.test(`${e.lanes_affected ?? ""} ${e.title}`))
  ) {
    out.push({ kind: "closure_minor", where: "severity", text: e.title })
  }
  return out
}

/** A truck-parking count older than this before the feed's time is no current count. */
export const STALE_PARKING_MS = 3_600_000

export const featureDefects = (f: FeatureObservation, feedTimeMs: number): Array<Defect> => {
  const out: Array<Defect> = []
  textDefects("name", f.name, out)
  textDefects("description", f.description, out)
  if (f.road_name !== null) textDefects("road_name", f.road_name, out)
  const p = f.properties as Record<string, unknown>
  const observed = typeof p.observed_at === "string" ? Date.parse(p.observed_at) : NaN
  if (p.available_spots !== undefined && Number.isFinite(observed) && observed < feedTimeMs - STALE_PARKING_MS) {
    out.push({ kind: "stale_count_current", where: "properties.available_spots", text: `${p.observed_at}` })
  }
  return out
}

/** The time a payload speaks for: its records' newest update (or creation) time; `fallback` when none say. */
export const feedTimeOf = (records: ReadonlyArray<EventObservation | FeatureObservation>, fallback: number): number => {
  let newest = -Infinity
  for (const r of records) {
    const t =
      "source_updated_at" in r
        ? Date.parse(r.source_updated_at ?? r.source_created_at ?? "")
        : Date.parse(typeof r.properties.observed_at === "string" ? r.properties.observed_at : "")
    if (Number.isFinite(t) && t > newest) newest = t
  }
  return Number.isFinite(newest) ? newest : fallback
}
