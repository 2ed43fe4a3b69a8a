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

export const dutyCalendar = (timeZone: string, dayStartHour: number): DutyCalendar => {
  const zone = DateTime.zoneUnsafeMakeNamed(timeZone)
  const zoned = (ms: number) => DateTime.unsafeMakeZoned(ms, { timeZone: zone })
  /** the start of `part` holding the instant, shifted by the designated hour */
  const startHolding = (ms: number, part: "day" | "week") => {
    let start = DateTime.add(DateTime.startOf(zoned(ms), part, { weekStartsOn: 1 }), { hours: dayStartHour })
    if (DateTime.toEpochMillis(start) > ms) start = DateTime.subtract(start, part === "day" ? { days: 1 } : { weeks: 1 })
    return start
  }
  return {
    nextDayStart: (ms) => DateTime.toEpochMillis(DateTime.add(startHolding(ms, "day"), { days: 1 })),
    nextWeekStart: (ms) => DateTime.toEpochMillis(DateTime.add(startHolding(ms, "week"), { weeks: 1 }))
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
