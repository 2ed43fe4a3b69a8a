/**
 * Lenient upstream timestamp reading: ISO with or without offset (no offset = UTC), any
 * number of fractional digits (iCone sends 7), epoch seconds or milliseconds.
 * Returns an ISO string or null; never throws.
 */
export const toIso = (value: unknown): string | null => {
  if (value === null || value === undefined || value === "") return null
  if (typeof value === "number") return fromEpoch(value)
  if (typeof value !== "string") return null
  const fast = canonicalUtc(value)
  if (fast !== null) return fast
  const s = value.trim()
  if (/^\d{9,13}$/.test(s)) return fromEpoch(Number(s))
  // trim fractional seconds to milliseconds; Date.parse rejects more than 3 digits on some inputs
  // "2026-08-07 21:10:00-04" (space separator, hour-only offset) as some agencies write it
  let t = s
    .replace(/^(\d{4}-\d{2}-\d{2}) (\d)/, "$1T$2")
    .replace(/([+-]\d{2})$/, "$1:00")
    .replace(/(\.\d{3})\d+/, "$1")
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(t)) t += "Z"
  const ms = Date.parse(t)
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null
}

const fromEpoch = (n: number): string | null => {
  if (!Number.isFinite(n) || n <= 0) return null
  const ms = n < 1e11 ? n * 1000 : n
  const d = new Date(ms)
  return Number.isFinite(d.getTime()) ? d.toISOString() : null
}

const digits = (s: string, from: number, to: number): number => {
  let n = 0
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48
    if (c < 0 || c > 9) return -1
    n = n * 10 + c
  }
  return n
}

/**
 * Most feeds already send `YYYY-MM-DDTHH:MM:SSZ` or `…SS.sssZ`: checking the fields by hand is
 * several times faster than a regex and a Date round trip, and this runs for every timestamp.
 */
const canonicalUtc = (s: string): string | null => {
  const n = s.length
  if (
    (n !== 20 && n !== 24) ||
    s[4] !== "-" ||
    s[7] !== "-" ||
    s[10] !== "T" ||
    s[13] !== ":" ||
    s[16] !== ":" ||
    s[n - 1] !== "Z"
  )
    return null
  if (n === 24 && (s[19] !== "." || digits(s, 20, 23) < 0)) return null
  const mo = digits(s, 5, 7),
    d = digits(s, 8, 10),
    h = digits(s, 11, 13),
    mi = digits(s, 14, 16),
    se = digits(s, 17, 19)
  if (
    digits(s, 0, 4) < 0 ||
    mo < 1 ||
    mo > 12 ||
    d < 1 ||
    d > 31 ||
    h < 0 ||
    h > 23 ||
    mi < 0 ||
    mi > 59 ||
    se < 0 ||
    se > 59
  )
    return null
  return n === 24 ? s : `${s.slice(0, 19)}.000Z`
}
