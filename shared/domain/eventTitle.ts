/**
 * Readable event titles. Some sources put an internal identifier where a name belongs (WZDx
 * feeds: `OpenTMS-Event20643308360_westbound` in `core_details.name`); a title is then built
 * from what the record says in words: the kind of work or incident, the road, the direction,
 * and the cross streets or mileposts.
 */

/** True when a name is an identifier rather than words: one token with digits in it, a UUID, a numbered record. */
export const looksLikeId = (name: string): boolean => {
  const t = name.trim()
  if (t === "") return true
  if (/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(t)) return true
  if (/^\S+$/.test(t) && /\d/.test(t) && !/^(I|US|SR|HWY|Highway|Route)[- ]?\d+[A-Z]?$/i.test(t)) return true
  // "121388 Eastbound", "67890 Detour (Segment 1)": a record number in front is not a name
  if (/^\d{4,}\b/.test(t)) return true
  // "Event 123456", "Project 65773 Event 1": numbered records, not names
  return /^((project|event|incident|wz|work ?zone|id|record|segment|section|phase)[\s#:_-]*\d+[\s_-]*)+$/i.test(t)
}

export interface TitleParts {
  /** what is happening, in words: "Road work", "Crash", "Lane closure" */
  readonly what: string
  readonly road?: string | null
  /** a normalized direction (shared/domain/Road.ts directionOf) */
  readonly direction?: string | null
  /** a cross street, place or milepost where it begins, and where it ends */
  readonly from?: string | null
  readonly to?: string | null
}

const DIRECTION_WORDS: Record<string, string> = {
  both: "both directions",
  inner_loop: "inner loop",
  outer_loop: "outer loop"
}

/** "Road work on I-70 westbound from MM 120 to MM 124" */
export const buildTitle = (p: TitleParts): string => {
  const what = p.what.trim().replace(/^./, (c) => c.toUpperCase())
  const road = p.road?.trim()
  const dir = p.direction ? (DIRECTION_WORDS[p.direction] ?? p.direction) : null
  const from = p.from?.trim()
  const to = p.to?.trim()
  const where = [road ? ` on ${road}` : "", dir ? ` ${dir}` : ""].join("")
  const span = from && to && from !== to ? ` from ${from} to ${to}` : from ? ` at ${from}` : to ? ` near ${to}` : ""
  return `${what}${where}${span}`
}

/** The upstream name when it is words, else a title built from the parts. */
export const readableTitle = (name: string | null | undefined, parts: TitleParts): string =>
  name && !looksLikeId(name) ? name.trim() : buildTitle(parts)

/** A milepost as a place: 117.242 → "km 117.2" or "mile 117.2". */
export const milepost = (value: number | null | undefined, unit: "km" | "mi"): string | null =>
  value === null || value === undefined || !Number.isFinite(value)
    ? null
    : `${unit === "km" ? "km" : "mile"} ${Math.round(value * 10) / 10}`
