/**
 * What the service says about an event's own data when the agency's record cannot be taken at its
 * word. The statuses of SPEC stay as they are: a flag qualifies an active event, it never ends it.
 */
export const QUALITY_FLAGS = ["end_time_passed", "end_before_start", "not_scheduled", "severity_inferred"] as const
export type QualityFlag = (typeof QUALITY_FLAGS)[number]

/** Each flag in words, as the portal and the guides show it. */
export const QUALITY_FLAG_WORDS: Record<QualityFlag, string> = {
  end_time_passed: "The agency's end time has passed, but its feed still lists this event",
  end_before_start: "The agency's end time is before its start time",
  not_scheduled: "The agency says this is not currently scheduled",
  severity_inferred: "Severity worked out from the lane and road closures (the agency gave none)"
}

/** Each flag as a short label, for a list row or a status line. */
export const QUALITY_FLAG_LABELS: Record<QualityFlag | "stale_reading", string> = {
  end_time_passed: "Past its end time",
  end_before_start: "Ends before it starts",
  not_scheduled: "Not currently scheduled",
  severity_inferred: "Severity worked out",
  stale_reading: "Stale reading"
}

/** An end this far behind the feed's time, on an event the feed still lists, is one that has passed. */
export const END_PASSED_GRACE_MS = 3_600_000

interface Times {
  readonly start_time: string | null
  readonly end_time: string | null
  readonly estimated_start_time: string | null
  readonly estimated_end_time: string | null
}

const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso))

/** The agency's end, or its estimate when it gave no firm one. */
export const endOf = (t: Times): number | null => ms(t.end_time ?? t.estimated_end_time)
export const startOf = (t: Times): number | null => ms(t.start_time ?? t.estimated_start_time)

/** Whether the agency's end (or estimated end) is more than an hour behind `feedTimeMs`. */
export const endTimePassed = (t: Times, feedTimeMs: number): boolean => {
  const end = endOf(t)
  return end !== null && Number.isFinite(end) && end < feedTimeMs - END_PASSED_GRACE_MS
}

/**
 * Times as the adapters write them (`toIso`: 2026-11-03T08:00:00.000Z): one length, UTC, so their text orders as they
 * do.
 */
const canonical = (s: string) => s.length === 24 && s.charCodeAt(23) === 90 && s.charCodeAt(10) === 84

/** Whether the record ends before it starts. */
export const endBeforeStart = (t: Times): boolean => {
  const endText = t.end_time ?? t.estimated_end_time
  const startText = t.start_time ?? t.estimated_start_time
  if (endText === null || startText === null) return false
  if (canonical(endText) && canonical(startText)) return endText < startText
  const end = endOf(t)
  const start = startOf(t)
  return end !== null && start !== null && Number.isFinite(end) && Number.isFinite(start) && end < start
}

/**
 * The flags of an event as published at `nowMs`: those its record carries, and `end_time_passed`,
 * which depends on the time it is read at (an unchanged record is not decoded again, so the flag
 * cannot be fixed when it is read). Archived events are over: the flag would say nothing.
 */
export const publishedFlags = (
  stored: ReadonlyArray<string> | null | undefined,
  t: Times & { readonly status: string },
  nowMs: number
): ReadonlyArray<string> => {
  const flags = stored ?? []
  if (t.status !== "active" || !endTimePassed(t, nowMs) || flags.includes("end_time_passed")) return flags
  return ["end_time_passed", ...flags]
}
