import type { EventObservation } from "../../../shared/domain/Event.js"
import { endBeforeStart, type QualityFlag } from "../../../shared/domain/qualityFlags.js"
import { codesInText, milepostPlaces } from "./codeWords.js"
import { inferSeverity, roadClosed } from "./inferSeverity.js"
import { capitalized, cleanLine, cleanText, cutTitle, present, splitAgencyPrefix, withoutPlaceholders } from "./publishText.js"

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

const note = (repairs: Set<Repair>, before: string, after: string, kind: Repair) => {
  if (before !== after) repairs.add(kind)
}

/** A short text cleaned, with which kinds of repair it needed. */
const line = (raw: string, repairs: Set<Repair>): string => {
  const cleaned = cleanLine(raw)
  if (cleaned !== raw) repairs.add(/[<&]/.test(raw) ? "markup" : "whitespace")
  const kept = withoutPlaceholders(cleaned)
  note(repairs, cleaned, kept, "placeholder")
  const worded = codesInText(kept)
  note(repairs, kept, worded, "code_words")
  const placed = milepostPlaces(worded)
  note(repairs, worded, placed, "milepost_code")
  return placed
}

export interface Edited {
  readonly event: EventObservation
  readonly repairs: ReadonlyArray<Repair>
  readonly flags: ReadonlyArray<QualityFlag>
}

export const editEvent = (e: EventObservation): Edited => {
  const repairs = new Set<Repair>()
  const metadata: Record<string, unknown> = { ...e.metadata }

  let title = line(e.title, repairs)
  const prefixed = splitAgencyPrefix(title)
  if (prefixed) {
    metadata.reported_by = prefixed[0]
    title = prefixed[1]
    repairs.add("agency_prefix")
  }
  title = capitalized(title)

  const rawDescription = e.description
  let description = cleanText(rawDescription)
  if (description !== rawDescription) repairs.add(/[<&]/.test(rawDescription) ? "markup" : "whitespace")
  const kept = description.includes("\n")
    ? description.split("\n").map(withoutPlaceholders).join("\n").replace(/\n{3,}/g, "\n\n").trim()
    : withoutPlaceholders(description)
  note(repairs, description, kept, "placeholder")
  description = milepostPlaces(kept)
  note(repairs, kept, description, "milepost_code")
  if (description !== "" && /^[a-z]/.test(description)) description = capitalized(description)

  const lanesRaw = e.lanes_affected
  const lanesPresent = lanesRaw === null ? null : present(lanesRaw)
  if (lanesRaw !== null && lanesPresent === null) repairs.add("placeholder")
  const lanes = lanesPresent === null ? null : capitalized(line(lanesPresent, repairs))

  const roads = e.affected_roads.map((r) => present(r)).filter((r): r is string => r !== null)
  if (roads.length !== e.affected_roads.length) repairs.add("placeholder")

  if (title === "" || title === ".") {
    title = capitalized(`${e.type.replace("_", " ")}${roads[0] ? ` on ${roads[0]}` : ""}`)
    repairs.add("placeholder")
  }
  const cut = cutTitle(title)
  if (cut !== null) {
    // the whole title stays readable in the description
    if (!description.includes(title)) description = description === "" ? title : `${title}\n\n${description}`
    title = cut
    repairs.add("title_cut")
  }
  if (description === "") {
    description = describe(e, title, lanes)
    repairs.add("description_written")
  }

  const flags = new Set<QualityFlag>()
  for (const f of e.quality_flags ?? []) if (f === "severity_inferred" || f === "not_scheduled") flags.add(f)
  let severity = e.severity
  const facts = { type: e.type, lanes, title, description }
  if (flags.has("severity_inferred")) severity = inferSeverity(facts)
  else if (severity === "minor" && roadClosed(facts)) {
    // a closure is never minor, whatever the agency's default says
    severity = "major"
    flags.add("severity_inferred")
  }
  if (endBeforeStart(e)) flags.add("end_before_start")
  if (NOT_SCHEDULED.test(e.title) || NOT_SCHEDULED.test(description)) flags.add("not_scheduled")

  if (repairs.size > 0) metadata.repairs = [...repairs].sort()
  const quality = [...flags].sort()
  return {
    event: {
      ...e, title, description, lanes_affected: lanes, affected_roads: roads, severity, metadata,
      sub_type: e.sub_type === null ? null : present(e.sub_type), quality_flags: quality
    },
    repairs: [...repairs],
    flags: quality
  }
}
