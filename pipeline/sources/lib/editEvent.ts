import type { EventObservation } from "../../../shared/domain/Event.js"
import { endBeforeStart, type QualityFlag } from "../../../shared/domain/qualityFlags.js"
import { codesInText, milepostPlaces } from "./codeWords.js"
import { inferSeverity, roadClosed } from "./inferSeverity.js"
import {
  capitalized,
  cleanLine,
  cleanText,
  cutTitle,
  isPlaceholder,
  splitAgencyPrefix,
  withoutPlaceholders
} from "./publishText.js"
import { remembered } from "./remembered.js"

/**
 * The one editor every event passes on its way out of an adapter: what it publishes reads as a
 * careful editor would write it, and what could not be taken at the agency's word is flagged.
 * Adapters map fields; this decides how the text reads. Each repair is named in
 * `metadata.repairs`, so an operator can count them per source.
 */

export const REPAIRS = [
  "markup",
  "whitespace",
  "placeholder",
  "code_words",
  "milepost_code",
  "agency_prefix",
  "title_cut",
  "description_written"
] as const
export type Repair = (typeof REPAIRS)[number]

/** The agency says in words that nothing is scheduled now. */
const NOT_SCHEDULED =
  /\b(not (currently |presently )?scheduled|no work (is )?(currently )?scheduled|work is not scheduled|no (current )?activity scheduled)\b/i

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const two = (n: number) => (n < 10 ? `0${n}` : String(n))
/**
 * "Nov 3, 2026, 08:00 UTC", written by hand: Intl's formatter costs tens of microseconds a call, and a cold poll
 * writes thousands
 */
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
  const times =
    start && end
      ? `From ${start}, ${endWord} ${end}.`
      : start
        ? `Since ${start}.`
        : end
          ? `${capitalized(endWord)} ${end}.`
          : null
  return [`${title.replace(/[.…]$/, "")}.`, lanes ? `${capitalized(lanes)}.` : null, times]
    .filter((s) => s !== null)
    .join(" ")
}

/** The repairs one record needed, in the order found; most records need none, so nothing is made for them. */
type Repairs = Array<Repair> | null
const add = (r: Repairs, kind: Repair): Repairs => {
  if (r === null) return [kind]
  if (!r.includes(kind)) r.push(kind)
  return r
}
const addAll = (r: Repairs, more: ReadonlyArray<Repair> | null): Repairs => {
  if (more === null) return r
  let out = r
  for (const k of more) out = add(out, k)
  return out
}

/** A short text as published and what it took; one value for every record that repeats it. */
interface EditedLine {
  readonly text: string
  readonly repairs: ReadonlyArray<Repair> | null
}

/** A short text cleaned (a title, a lane text): markup, blanks, placeholders, codes, milepost codes. */
const editLine = (raw: string): EditedLine => {
  let repairs: Repairs = null
  const cleaned = cleanLine(raw)
  if (cleaned !== raw) repairs = add(repairs, /[<&]/.test(raw) ? "markup" : "whitespace")
  const kept = withoutPlaceholders(cleaned)
  if (kept !== cleaned) repairs = add(repairs, "placeholder")
  const worded = codesInText(kept)
  if (worded !== kept) repairs = add(repairs, "code_words")
  const placed = milepostPlaces(worded)
  if (placed !== worded) repairs = add(repairs, "milepost_code")
  return { text: placed, repairs }
}

/** A title as published, with the agency prefix it carried ("CHP : …"), if any. */
const editTitle = remembered((raw: string): EditedLine & { readonly reportedBy: string | null } => {
  const edited = editLine(raw)
  const prefixed = splitAgencyPrefix(edited.text)
  if (prefixed === null) return { text: capitalized(edited.text), repairs: edited.repairs, reportedBy: null }
  return {
    text: capitalized(prefixed[1]),
    repairs: add(edited.repairs && [...edited.repairs], "agency_prefix"),
    reportedBy: prefixed[0]
  }
})

/** A lane text in words, or null (with a placeholder repair) when it says nothing. */
const editLanes = remembered((raw: string): EditedLine | null => {
  const present = presentLine(raw)
  if (present === null) return null
  const edited = editLine(present)
  return { text: capitalized(edited.text), repairs: edited.repairs }
})

/** Whether a road name needs cleaning or is a placeholder; names repeat across a feed. */
const roadNeedsWork = remembered((r: string) => cleanLine(r) !== r || isPlaceholder(r))

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
  const editedTitle = editTitle(e.title)
  let title = editedTitle.text
  const reportedBy = editedTitle.reportedBy
  let repairs: Repairs = editedTitle.repairs && [...editedTitle.repairs]

  const rawDescription = e.description
  let description = cleanText(rawDescription)
  if (description !== rawDescription) repairs = add(repairs, /[<&]/.test(rawDescription) ? "markup" : "whitespace")
  const kept = description.includes("\n")
    ? description
        .split("\n")
        .map(withoutPlaceholders)
        .join("\n")
        .replace(/\n{3,}/g, "\n\n")
        .trim()
    : withoutPlaceholders(description)
  if (kept !== description) repairs = add(repairs, "placeholder")
  description = milepostPlaces(kept)
  if (description !== kept) repairs = add(repairs, "milepost_code")
  description = capitalized(description)

  let lanes: string | null = null
  if (e.lanes_affected !== null) {
    const edited = editLanes(e.lanes_affected)
    if (edited === null) repairs = add(repairs, "placeholder")
    else {
      lanes = edited.text
      repairs = addAll(repairs, edited.repairs)
    }
  }

  let roads = e.affected_roads
  if (roads.some(roadNeedsWork)) {
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
  for (const f of e.quality_flags ?? NONE)
    if ((f === "severity_inferred" || f === "not_scheduled") && !flags.includes(f)) flags.push(f)
  let severity = e.severity
  if (flags.includes("severity_inferred")) severity = inferSeverity({ type: e.type, lanes, title, description })
  else if (severity === "minor" && roadClosed({ type: e.type, lanes, title, description })) {
    // a closure is never minor, whatever the agency's default says
    severity = "major"
    flags.push("severity_inferred")
  }
  if (endBeforeStart(e)) flags.push("end_before_start")
  if (
    (e.title.includes("cheduled") || description.includes("cheduled")) &&
    (NOT_SCHEDULED.test(e.title) || NOT_SCHEDULED.test(description))
  ) {
    if (!flags.includes("not_scheduled")) flags.push("not_scheduled")
  }

  const quality = flags.length === 0 ? NONE : flags.sort()
  // the adapter's record is its own, made for this decode: edited where it lies, so each record
  // keeps one shape and no copy of its 25 fields is made (bench:ingest's cold pass edits 50,000)
  const out = e as Mutable<EventObservation>
  if (repairs !== null || reportedBy !== null) {
    out.metadata = {
      ...e.metadata,
      ...(reportedBy !== null ? { reported_by: reportedBy } : {}),
      ...(repairs !== null ? { repairs: [...repairs].sort() } : {})
    }
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
