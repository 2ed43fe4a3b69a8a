import { decodeHTML } from "entities"

/**
 * Text fit to publish, whatever an agency sent: markup turned into text, entities decoded,
 * non-breaking and other odd spaces made plain, runs of spaces collapsed, blank edges trimmed,
 * and placeholder values (`UNKNOWN`, `No Data`, `N/A` …) recognised so nothing prints them.
 * Pure string work; `editEvent` and `editFeature` apply it to every record of every adapter.
 */

/** Tags that end a line or a paragraph when markup is read as text. */
const BREAK = /<\s*br\s*\/?\s*>/gi
const BLOCK_END = /<\s*\/\s*(p|div|li|tr|h[1-6])\s*>|<\s*(p|div|li|tr|h[1-6])(\s[^>]*)?>/gi
const TAG = /<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>/gi
/** no-break, figure, narrow, zero-width and other non-ASCII blanks; tabs and form feeds */
const ODD_SPACE = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\t\f\v]/g
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g
const ODD = /[<&\u00a0\u1680\u2000-\u200d\u202f\u205f\u2060\u3000\ufeff\t\f\v\r]|\s\s/
const isBlank = (c: number) => c === 32 || c === 10 || c === 9 || c === 13
/** whether a text needs any of the work below: most agency text needs none */
const needsWork = (s: string) =>
  s.length > 0 && (isBlank(s.charCodeAt(0)) || isBlank(s.charCodeAt(s.length - 1)) || ODD.test(s))

/**
 * Plain text: markup as text (`<br>` a line break, a paragraph a blank line), entities decoded,
 * spaces tidied within each line, at most one blank line in a row, no blank edges.
 */
export const cleanText = (raw: string | null | undefined): string => {
  if (raw === null || raw === undefined) return ""
  if (!needsWork(raw)) return raw
  let s = raw.replace(/\r\n?/g, "\n")
  if (s.includes("<")) s = s.replace(BREAK, "\n").replace(BLOCK_END, "\n\n").replace(TAG, "")
  if (s.includes("&")) s = decodeHTML(s)
  s = s.replace(ZERO_WIDTH, "").replace(ODD_SPACE, " ")
  return s
    .split("\n")
    .map((line) => line.replace(/ {2,}/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
}

/** One line: every break a space (titles, names, lane texts). */
export const cleanLine = (raw: string | null | undefined): string => {
  const text = cleanText(raw)
  return text.includes("\n") ? text.replace(/\s*\n+\s*/g, " ") : text
}

/** Values agencies send where they have nothing to say. Compared case-insensitively, whole value. */
const PLACEHOLDER =
  /^(unknown|unk|null|undefined|none|nil|n\/?a|na|no data|not available|not applicable|not specified|unspecified|tbd|tba|-+|\.+|\?+|\*+|0)$/i

/** True for a value that says nothing (after cleaning). */
export const isPlaceholder = (s: string | null | undefined): boolean => {
  if (s === null || s === undefined) return true
  // a value longer than any placeholder, with no odd blanks, is words
  if (s.length > 20 && !needsWork(s)) return false
  const t = cleanLine(s)
  return t === "" || PLACEHOLDER.test(t)
}

/** The cleaned value, or null when it is a placeholder. */
export const present = (s: string | null | undefined): string | null => (isPlaceholder(s) ? null : cleanLine(s))

const PLACEHOLDER_WORD = "(?:UNKNOWN|Unknown|unknown|NULL|null|undefined|N/A|n/a|No Data|NO DATA|TBD|TBA)"
/** A comma-separated part that is only a placeholder: "I-39, MP 85, Unknown" */
const PLACEHOLDER_PART = new RegExp(`(^|,)\\s*${PLACEHOLDER_WORD}\\s*(?=,|$)`, "g")
/** "from X to UNKNOWN", "from UNKNOWN to X", "at UNKNOWN", "near null" */
const FROM_TO = new RegExp(`\\bfrom (.+?) to ${PLACEHOLDER_WORD}(?=$|[\\s.,;)])`, "g")
const FROM_PLACEHOLDER = new RegExp(`\\bfrom ${PLACEHOLDER_WORD} to (?=\\S)`, "g")
const AFTER_PREPOSITION = new RegExp(`\\s+(?:at|near|to|from|between|on|by|in) ${PLACEHOLDER_WORD}(?=$|[\\s.,;)])`, "g")
const BARE = new RegExp(`(^|[\\s(])${PLACEHOLDER_WORD}(?=$|[\\s.,;)])`, "g")

/**
 * A phrase with its placeholders taken out and the words around them made to fit:
 * "from KOHLER AVE to UNKNOWN" → "at KOHLER AVE", "from UNKNOWN to Main St" → "near Main St",
 * "I-39, MP 85, Unknown" → "I-39, MP 85". A value that is only a placeholder becomes "".
 */
const MAY_HOLD_PLACEHOLDER = /unknown|null|undefined|n\/a|no data|tbd|tba/i

export const withoutPlaceholders = (s: string): string => {
  if (!MAY_HOLD_PLACEHOLDER.test(s)) return s
  if (isPlaceholder(s)) return ""
  return s
    .replace(FROM_TO, "at $1")
    .replace(FROM_PLACEHOLDER, "near ")
    .replace(AFTER_PREPOSITION, "")
    .replace(PLACEHOLDER_PART, "$1")
    .replace(BARE, "$1")
    .replace(/^\s*,\s*|\s*,\s*$/g, "")
    .replace(/,\s*,/g, ",")
    .replace(/\(\s*\)/g, "")
    .replace(/ {2,}/g, " ")
    .trim()
}

export const MAX_TITLE = 160

/** A title of at most 160 characters, cut at a word with an ellipsis; null when it fits. */
export const cutTitle = (title: string): string | null => {
  if (title.length <= MAX_TITLE) return null
  const room = title.slice(0, MAX_TITLE - 1)
  const space = room.lastIndexOf(" ")
  const cut = space > MAX_TITLE / 2 ? room.slice(0, space) : room
  return `${cut.replace(/[\s,;:.–—-]+$/, "")}…`
}

/**
 * An agency or desk prefix before the title proper: "CHP : Disabled vehicle on I-80" →
 * ["CHP", "Disabled vehicle on I-80"]. Only a short upper-case name with a colon counts.
 */
export const splitAgencyPrefix = (title: string): readonly [string, string] | null => {
  const m = /^([A-Z][A-Z0-9&./-]{1,11}(?: [A-Z][A-Z0-9&./-]{1,11})?)\s*:\s+(\S.*)$/.exec(title)
  if (!m) return null
  // a road or a time is not an agency: "I-80: …", "US 6: …", "12:30 …"
  if (/^(I|US|SR|HWY|CR|RTE|ROUTE|HIGHWAY)\b|\d/.test(m[1]!)) return null
  return [m[1]!, m[2]!]
}

/** A capital at the start, as a careful editor writes a sentence or a title. */
export const capitalized = (s: string): string => {
  const c = s.charCodeAt(0)
  return c >= 97 && c <= 122
    ? s[0]!.toUpperCase() + s.slice(1)
    : /^[a-zà-ÿ]/.test(s)
      ? s[0]!.toUpperCase() + s.slice(1)
      : s
}
