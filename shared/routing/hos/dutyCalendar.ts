import { DateTime } from "effect"

/**
 * The calendar an hours-of-service regime counts in: Canada's "day" (24 h from the hour the
 * carrier designates, SOR/2005-313 s.1) and the EU's fixed week (Monday 00:00 to Sunday 24:00,
 * Regulation 561/2006 art. 4(i)), both in the home terminal's time zone. Effect's zoned
 * DateTime does the zone and daylight-saving arithmetic.
 */
export interface DutyCalendar {
  /** the first day start strictly after the instant */
  readonly nextDayStart: (ms: number) => number
  /** the first week start (Monday, day_start_hour) strictly after the instant */
  readonly nextWeekStart: (ms: number) => number
}

const calendars = new Map<string, DutyCalendar>()
/** remembered boundaries per calendar: a projection asks for the same few days again and again */
const MAX_REMEMBERED = 4096

const remembering = (f: (ms: number) => number) => {
  const seen = new Map<number, number>()
  return (ms: number) => {
    const known = seen.get(ms)
    if (known !== undefined) return known
    if (seen.size >= MAX_REMEMBERED) seen.clear()
    const next = f(ms)
    seen.set(ms, next)
    return next
  }
}

/** The calendar of a zone and a designated hour; one per pair, kept for the process (zones are costly to make). */
export const dutyCalendar = (timeZone: string, dayStartHour: number): DutyCalendar => {
  const key = `${timeZone}|${dayStartHour}`
  const known = calendars.get(key)
  if (known) return known
  const zone = DateTime.zoneUnsafeMakeNamed(timeZone)
  const zoned = (ms: number) => DateTime.unsafeMakeZoned(ms, { timeZone: zone })
  /** the start of `part` holding the instant, shifted by the designated hour */
  const startHolding = (ms: number, part: "day" | "week") => {
    let start = DateTime.add(DateTime.startOf(zoned(ms), part, { weekStartsOn: 1 }), { hours: dayStartHour })
    if (DateTime.toEpochMillis(start) > ms)
      start = DateTime.subtract(start, part === "day" ? { days: 1 } : { weeks: 1 })
    return start
  }
  const calendar: DutyCalendar = {
    nextDayStart: remembering((ms) => DateTime.toEpochMillis(DateTime.add(startHolding(ms, "day"), { days: 1 }))),
    nextWeekStart: remembering((ms) => DateTime.toEpochMillis(DateTime.add(startHolding(ms, "week"), { weeks: 1 })))
  }
  calendars.set(key, calendar)
  return calendar
}

/**
 * Counts `seconds` of driving from `clockMs` into the periods (days, weeks) it falls in:
 * `periodEnd(t)` moves the bookkeeping on to the period holding t and says when it ends; `add`
 * counts each part.
 */
export const spreadOverPeriods = (
  clockMs: number,
  seconds: number,
  periodEnd: (t: number) => number,
  add: (s: number) => void
) => {
  let t = clockMs
  let left = seconds
  while (left > 0) {
    const part = Math.min(left, (periodEnd(t) - t) / 1000)
    add(part)
    t += part * 1000
    left -= part
  }
}

/** Whether the name is a time zone this runtime knows (IANA, e.g. America/Toronto). */
export const isTimeZone = (name: string) => {
  try {
    DateTime.zoneUnsafeMakeNamed(name)
    return true
  } catch {
    return false
  }
}
