import tzLookup from "@photostructure/tz-lookup"

/** The IANA time zone at a place (offline: the zone boundaries ship with the bundle). */
export const zoneAt = (lat: number, lng: number): string => {
  try {
    return tzLookup(lat, lng)
  } catch {
    return "UTC"
  }
}

/** A moment as a clock on the wall there reads it, the zone named: "Mar 4, 2030, 14:05 CST". */
export const formatLocal = (iso: string, zone: string) =>
  new Date(iso).toLocaleString("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    hourCycle: "h23",
    timeZone: zone
  }) + ` ${zoneName(iso, zone)}`

/** The time of day there, the zone named: "21:40 CST". */
export const formatClock = (iso: string, zone: string) =>
  new Date(iso).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone }) +
  ` ${zoneName(iso, zone)}`

const zoneName = (iso: string, zone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "short" })
    .formatToParts(new Date(iso))
    .find((p) => p.type === "timeZoneName")?.value ?? zone

/** Milliseconds the zone's clock runs ahead of UTC at a moment. */
const offsetMs = (ms: number, zone: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value])
  )
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second)
  return wall - Math.floor(ms / 1000) * 1000
}

/**
 * The UTC moment of a wall-clock time ("2030-03-04T08:00", as a date-time input gives it) in a
 * zone. Twice round the offset: once for a first guess, once at the guess, which settles a
 * time near a daylight-saving change; a time the spring change skips lands an hour later.
 */
export const zonedToUtc = (local: string, zone: string): string | undefined => {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)$/.exec(local)
  if (!m) return undefined
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5])
  const first = wall - offsetMs(wall, zone)
  const second = wall - offsetMs(first, zone)
  // the clock there reads the input at `second` unless the input is skipped: then the later reading
  const reads = (ms: number) => ms + offsetMs(ms, zone) === wall
  return new Date(reads(second) ? second : reads(first) ? first : Math.max(first, second)).toISOString()
}

/** The wall-clock time now in a zone, as a date-time input takes it. */
export const localNow = (zone: string, nowMs = Date.now()) =>
  new Date(nowMs + offsetMs(nowMs, zone)).toISOString().slice(0, 16)

const R = 6_371_008.8
const rad = (d: number) => (d * Math.PI) / 180
const metres = ([lng1, lat1]: readonly number[], [lng2, lat2]: readonly number[]) => {
  const a =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2
  return 2 * R * Math.asin(Math.sqrt(a))
}

/**
 * The `[lng, lat]` vertex a distance along a line (the first at or past it: a route's vertices
 * lie close enough together to tell its time zone). The route's own distances carry the network's
 * length calibration (a percent or so), so the point is scaled to the line's measured length.
 */
export const pointAlong = (
  coords: ReadonlyArray<readonly number[]>,
  alongM: number,
  totalM: number
): readonly number[] => {
  if (coords.length === 0) return [0, 0]
  const lengths: Array<number> = []
  let sum = 0
  for (let i = 1; i < coords.length; i++) lengths.push((sum += metres(coords[i - 1], coords[i])))
  const target = totalM > 0 ? (alongM / totalM) * sum : 0
  if (target <= 0) return coords[0]
  for (let i = 0; i < lengths.length; i++) if (lengths[i] >= target) return coords[i + 1]
  return coords[coords.length - 1]
}
