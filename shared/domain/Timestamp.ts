/**
 * Lenient upstream timestamp reading: ISO with or without offset (no offset = UTC), any
 * number of fractional digits (iCone sends 7), epoch seconds or milliseconds.
 * Returns an ISO string or null; never throws.
 */
export const toIso = (value: unknown): string | null => {
  if (value === null || value === undefined || value === "") return null
  if (typeof value === "number") return fromEpoch(value)
  if (typeof value !== "string") return null
  const s = value.trim()
  if (/^\d{9,13}$/.test(s)) return fromEpoch(Number(s))
  // trim fractional seconds to milliseconds; Date.parse rejects more than 3 digits on some inputs
  let t = s.replace(/(\.\d{3})\d+/, "$1")
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
