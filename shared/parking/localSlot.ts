/**
 * Where in a site's week a moment falls, in the site's own clock: parking fills by local hour and
 * by weekday, so a profile is kept by local time. A site's zone is its state's (the states that
 * publish truck parking lie each in one zone for their truck corridors, Kentucky and Indiana
 * mostly Eastern); a state not listed is taken as Central.
 */
const STATE_ZONES: Readonly<Record<string, string>> = {
  IL: "America/Chicago",
  IN: "America/Indiana/Indianapolis",
  KY: "America/New_York",
  OH: "America/New_York",
  MI: "America/Detroit",
  WI: "America/Chicago",
  MN: "America/Chicago",
  IA: "America/Chicago",
  KS: "America/Chicago",
  FL: "America/New_York",
  CA: "America/Los_Angeles",
  CO: "America/Denver",
  ON: "America/Toronto",
  BC: "America/Vancouver"
}

export const SLOT_MINUTES = 15
export const SLOTS_PER_DAY = (24 * 60) / SLOT_MINUTES

const HOUR = 3_600_000
const formatters = new Map<string, Intl.DateTimeFormat>()
const offsets = new Map<string, number>()

/** The zone's offset from UTC in minutes during the UTC hour holding `at` (DST changes on the hour). */
const offsetMinutes = (zone: string, at: number) => {
  const hour = Math.floor(at / HOUR)
  const key = `${zone}|${hour}`
  const known = offsets.get(key)
  if (known !== undefined) return known
  let f = formatters.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric"
    })
    formatters.set(zone, f)
  }
  const p = Object.fromEntries(f.formatToParts(hour * HOUR).map((x) => [x.type, x.value]))
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute))
  const minutes = Math.round((local - hour * HOUR) / 60_000)
  offsets.set(key, minutes)
  return minutes
}

export const zoneOfSite = (site: string) => STATE_ZONES[site.slice(0, site.indexOf(":"))] ?? "America/Chicago"

/** The local day (days since 1970-01-01 on the site's clock), weekday (0 Sunday) and 15-minute slot of a moment. */
export const localSlot = (site: string, at: number) => {
  const local = at + offsetMinutes(zoneOfSite(site), at) * 60_000
  const day = Math.floor(local / 86_400_000)
  const slot = Math.floor((local - day * 86_400_000) / (SLOT_MINUTES * 60_000))
  const weekday = (((day + 4) % 7) + 7) % 7
  return { day, weekday, slot, weekend: weekday === 0 || weekday === 6 }
}
