import { badRequest } from "./middleware/errors.js"

/**
 * Query-string readers. Each returns undefined for an absent value and throws a 400 for one
 * that is present but unusable, naming the parameter.
 */
type Query = Record<string, string | string[] | undefined>

/** A repeated parameter is ambiguous; we take the last one, as most frameworks do. */
export const str = (q: Query, name: string): string | undefined => {
  const v = q[name]
  const s = Array.isArray(v) ? v[v.length - 1] : v
  if (s === undefined) return undefined
  if (s.length > 2000) throw badRequest(`${name} is too long (at most 2000 characters)`)
  const t = s.trim()
  return t === "" ? undefined : t
}

export const list = (q: Query, name: string, max = 100): ReadonlyArray<string> | undefined => {
  const s = str(q, name)
  if (s === undefined) return undefined
  const items = s.split(",").map((x) => x.trim()).filter((x) => x !== "")
  if (items.length > max) throw badRequest(`${name} lists ${items.length} values; at most ${max} are allowed`)
  return items.length > 0 ? items : undefined
}

export const num = (q: Query, name: string, min: number, max: number): number | undefined => {
  const s = str(q, name)
  if (s === undefined) return undefined
  const n = Number(s)
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s) || !Number.isFinite(n)) throw badRequest(`${name} must be a number`)
  if (n < min || n > max) throw badRequest(`${name} must be between ${min} and ${max}`)
  return n
}

export const int = (q: Query, name: string, min: number, max: number): number | undefined => {
  const s = str(q, name)
  if (s === undefined) return undefined
  if (!/^[+-]?\d+$/.test(s)) throw badRequest(`${name} must be a whole number`)
  const n = Number(s)
  if (n < min || n > max) throw badRequest(`${name} must be between ${min} and ${max}`)
  return n
}

export const bool = (q: Query, name: string): boolean | undefined => {
  const s = str(q, name)?.toLowerCase()
  if (s === undefined) return undefined
  if (s === "true" || s === "1") return true
  if (s === "false" || s === "0") return false
  throw badRequest(`${name} must be true or false`)
}

export interface Bbox {
  readonly minLng: number
  readonly minLat: number
  readonly maxLng: number
  readonly maxLat: number
}

export const bbox = (q: Query, name = "bbox"): Bbox | undefined => {
  const s = str(q, name)
  if (s === undefined) return undefined
  const parts = s.split(",").map((x) => x.trim())
  const nums = parts.map(Number)
  if (parts.length !== 4 || parts.some((p) => p === "") || nums.some((n) => !Number.isFinite(n))) {
    throw badRequest(`${name} must be minLng,minLat,maxLng,maxLat`)
  }
  const [minLng, minLat, maxLng, maxLat] = nums
  if (Math.abs(minLng) > 180 || Math.abs(maxLng) > 180 || Math.abs(minLat) > 90 || Math.abs(maxLat) > 90) {
    throw badRequest(`${name} coordinates are out of range (longitude ±180, latitude ±90)`)
  }
  if (minLng > maxLng || minLat > maxLat) throw badRequest(`${name} minimums must not exceed maximums`)
  return { minLng, minLat, maxLng, maxLat }
}

export interface Circle {
  readonly lat: number
  readonly lng: number
  readonly radiusKm: number
}

export const circle = (q: Query, maxRadiusKm: number): Circle | undefined => {
  const lat = num(q, "lat", -90, 90)
  const lng = num(q, "lng", -180, 180)
  const radiusKm = num(q, "radius_km", 0.001, maxRadiusKm)
  if (lat === undefined && lng === undefined) {
    if (radiusKm !== undefined) throw badRequest("radius_km needs lat and lng")
    return undefined
  }
  if (lat === undefined || lng === undefined) throw badRequest("lat and lng go together")
  return { lat, lng, radiusKm: radiusKm ?? 50 }
}

/** RFC 3339 date-time, or a bare `YYYY-MM-DD` meaning UTC midnight (SPEC conventions). */
export const instant = (q: Query, name: string): string | undefined => {
  const s = str(q, name)
  if (s === undefined) return undefined
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(s)
    ? `${s}T00:00:00Z`
    : /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/.test(s) ? s : null
  const ms = iso === null ? Number.NaN : Date.parse(iso)
  if (!Number.isFinite(ms)) throw badRequest(`${name} must be an RFC 3339 date-time or YYYY-MM-DD`)
  return new Date(ms).toISOString()
}
