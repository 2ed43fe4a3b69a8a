import type { EventObservation } from "../../../shared/domain/Event.js"
import { endBeforeStart, type QualityFlag } from "../../../shared/domain/qualityFlags.js"
import { codesInText, milepostPlaces } from "./codeWords.js"
import { inferSeverity, roadClosed } from "./inferSeverity.js"
import { capitalized, cleanLine, cleanText, cutTitle, isPlaceholder, splitAgencyPrefix, withoutPlaceholders } from "./publishText.js"

/**
 * The one editor every event passes on its way out of an adapter: what it publishes reads as a
 * careful editor would write it, and what could not be taken at the agency's word is flagged.
 * Adapters map fields; this decides how the text reads. Each repair is named in
 * `metadata.repairs`, so an operator can count them per source.
 */

export const REPAIRS = [
  "markup", "whitespace", "placeholder", "code_words", "milepost_code", "agency_prefix", "title_cut", "description_written"
] as const
export type Repair = (typeof REPAIRS)[number]

/** The agency says in words that nothing is scheduled now. */
const NOT_SCHEDULED = /\b(not (currently |presently )?scheduled|no work (is )?(currently )?scheduled|work is not scheduled|no (current )?activity scheduled)\b/i

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const two = (n: number) => (n < 10 ? `0${n}` : String(n))
/** "Nov 3, 2026, 08:00 UTC", written by hand: Intl's formatter costs tens of microseconds a call, and a cold poll writes thousands */
const when = (iso: string | null) => {
  if (iso === null) return null
  const d = new Date(iso)
  if (!Number.isFinite(d.getTime())) return null
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`
}

/** A description from the record's fields, for a record that came with none. */
const describe = (e: EventObservation, title: string, lanes: string | null): string => {
  const start = when(e.start_time ?? e.estimated_start_time)
  const end = when(e.end_time ?? e.estimated_end_time)
  const endWord = e.end_time !== null ? "until" : "expected to end"
  const times = start && end ? `From ${start}, ${endWord} ${end}.` : start ? `Since ${start}.` : end ? `${capitalized(endWord)} ${end}.` : null
  return [`${title.replace(/[.…]$/, "")}.`, lanes ? `${capitalized(lanes)}.` : null, times].filter((s) => s !== null).join(" ")
}

/** The repairs one record needed, in the order found; most records need none, so nothing is made for them. */
type Repairs = Array<Repair> | null
const add = (r: Repairs, kind: Repair): Repairs => {
  if (r === null) return [kind]
  if (!r.includes(kind)) r.push(kind)
  return r
}

/** The repairs of the record being edited (editing is synchronous: one record at a time). */
let found: Repairs = null

/** A short text cleaned (a title, a lane text), its repairs added to `found`. */
const line = (raw: string): string => {
  const cleaned = cleanLine(raw)
  if (cleaned !== raw) found = add(found, /[<&]/.test(raw) ? "markup" : "whitespace")
  const kept = withoutPlaceholders(cleaned)
  if (kept !== cleaned) found = add(found, "placeholder")
  const worded = codesInText(kept)
  if (worded !== kept) found = add(found, "code_words")
  const placed = milepostPlaces(worded)
  if (placed !== worded) found = add(found, "milepost_code")
  return placed
}

export interface Edited {
  readonly event: EventObservation
  readonly repairs: ReadonlyArray<Repair>
  readonly flags: ReadonlyArray<QualityFlag>
}

const NONE: ReadonlyArray<never> = Object.freeze([])

/** A lane text or a road name as published, or null when it is a placeholder. */
const presentLine = (raw: string): string | null => {
  const cleaned = cleanLine(raw)
  return isPlaceholder(cleaned) ? null : cleaned
}

/** Edits the record in place (it is the adapter's, made for this decode) and answers it with what was done. */
export const editEvent = (e: EventObservation): Edited => {
  found = null
  let reportedBy: string | null = null

  let title = line(e.title)
  let repairs: Repairs = found
  const prefixed = splitAgencyPrefix(title)
  if (prefixed) {
    reportedBy = prefixed[0]
    title = prefixed[1]
    repairs = add(repairs, "agency_prefix")
  }
  title = capitalized(title)

  const rawDescription = e.description
  let description = cleanText(rawDescription)
  if (description !== rawDescription) repairs = add(repairs, /[<&]/.test(rawDescription) ? "markup" : "whitespace")
  const kept = description.includes("\n")
    ? description.split("\n").map(withoutPlaceholders).join("\n").replace(/\n{3,}/g, "\n\n").trim()
    : withoutPlaceholders(description)
  if (kept !== description) repairs = add(repairs, "placeholder")
  description = milepostPlaces(kept)
  if (description !== kept) repairs = add(repairs, "milepost_code")
  description = capitalized(description)

  let lanes: string | null = null
  if (e.lanes_affected !== null) {
    const present = presentLine(e.lanes_affected)
    if (present === null) repairs = add(repairs, "placeholder")
    else {
      found = repairs
      lanes = capitalized(line(present))
      repairs = found
    }
  }

  let roads = e.affected_roads
  if (roads.some((r) => cleanLine(r) !== r || isPlaceholder(r))) {
    roads = roads.map(presentLine).filter((r): r is string => r !== null)
    if (roads.length !== e.affected_roads.length) repairs = add(repairs, "placeholder")
  }

  if (title === "" || title === ".") {
    title = capitalized(`${e.type.replace("_", " ")}${roads[0] ? ` on ${roads[0]}` : ""}`)
    repairs = add(repairs, "placeholder")
  }
  const cut = cutTitle(title)
  if (cut !== null) {
    // the whole title stays readable in the description
    if (!description.includes(title)) description = description === "" ? title : `${title}\n\n${description}`
    title = cut
    repairs = add(repairs, "title_cut")
  }
  if (description === "") {
    description = describe(e, title, lanes)
    repairs = add(repairs, "description_written")
  }

  const flags: Array<QualityFlag> = []
  for (const f of e.quality_flags ?? NONE) if ((f === "severity_inferred" || f === "not_scheduled") && !flags.includes(f)) flags.push(f)
  let severity = e.severity
  if (flags.includes("severity_inferred")) severity = inferSeverity({ type: e.type, lanes, title, description })
  else if (severity === "minor" && roadClosed({ type: e.type, lanes, title, description })) {
    // a closure is never minor, whatever the agency's default says
    severity = "major"
    flags.push("severity_inferred")
  }
  if (endBeforeStart(e)) flags.push("end_before_start")
  if ((e.title.includes("cheduled") || description.includes("cheduled")) && (NOT_SCHEDULED.test(e.title) || NOT_SCHEDULED.test(description))) {
    if (!flags.includes("not_scheduled")) flags.push("not_scheduled")
  }

  const quality = flags.length === 0 ? NONE : flags.sort()
  // the adapter's record is its own, made for this decode: edited where it lies, so each record
  // keeps one shape and no copy of its 25 fields is made (bench:ingest's cold pass edits 50,000)
  const out = e as Mutable<EventObservation>
  if (repairs !== null || reportedBy !== null) {
    out.metadata = { ...e.metadata, ...(reportedBy !== null ? { reported_by: reportedBy } : {}), ...(repairs !== null ? { repairs: [...repairs].sort() } : {}) }
  }
  if (e.sub_type !== null && isPlaceholder(e.sub_type)) out.sub_type = null
  out.title = title
  out.description = description
  out.lanes_affected = lanes
  out.affected_roads = roads
  out.severity = severity
  out.quality_flags = quality
  return { event: out, repairs: repairs ?? NONE, flags: quality }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }
