import * as turf from "@turf/turf"
import type { Geometry } from "../domain/Event.js"

type Position = [number, number]

/** A usable [lng, lat]: two finite numbers within range. */
export const isPosition = (p: unknown): p is Position =>
  Array.isArray(p) &&
  typeof p[0] === "number" &&
  typeof p[1] === "number" &&
  Number.isFinite(p[0]) &&
  Number.isFinite(p[1]) &&
  Math.abs(p[0]) <= 180 &&
  Math.abs(p[1]) <= 90

/**
 * The point that stands for a geometry in radius/bbox searches and in latitude/longitude:
 * the point itself, the middle of a line (by length), the first of a MultiPoint (WZDx start),
 * the centroid of a polygon. null when the geometry has no usable coordinates.
 */
export const representativePoint = (g: Geometry | null | undefined): { latitude: number; longitude: number } | null => {
  if (!g) return null
  const c = g.coordinates as unknown
  try {
    switch (g.type) {
      case "Point":
        return isPosition(c) ? { longitude: c[0], latitude: c[1] } : null
      case "MultiPoint":
        return Array.isArray(c) && isPosition(c[0]) ? { longitude: c[0][0], latitude: c[0][1] } : null
      case "LineString": {
        if (!Array.isArray(c) || c.length === 0 || !c.every(isPosition)) return null
        if (c.length === 1) return { longitude: c[0][0], latitude: c[0][1] }
        const line = turf.lineString(c as Position[])
        const mid = turf.along(line, turf.length(line) / 2)
        const [lng, lat] = mid.geometry.coordinates
        return { longitude: lng, latitude: lat }
      }
      case "MultiLineString":
        return Array.isArray(c) ? representativePoint({ type: "LineString", coordinates: c[0] }) : null
      case "Polygon":
      case "MultiPolygon": {
        const [lng, lat] = turf.centroid({ type: g.type, coordinates: c } as never).geometry.coordinates
        return isPosition([lng, lat]) ? { longitude: lng, latitude: lat } : null
      }
      default:
        return null
    }
  } catch {
    return null
  }
}

export const validLatLng = (lat: unknown, lng: unknown): boolean =>
  typeof lat === "number" &&
  typeof lng === "number" &&
  Number.isFinite(lat) &&
  Number.isFinite(lng) &&
  Math.abs(lat) <= 90 &&
  Math.abs(lng) <= 180 &&
  !(lat === 0 && lng === 0)

/**
 * Some feeds put latitude first in GeoJSON positions. For a North American source, a position
 * that only makes sense swapped is swapped back; one that makes no sense either way is null.
 */
export const northAmericanLngLat = (
  lng: number,
  lat: number
): { longitude: number; latitude: number; swapped: boolean } | null => {
  const plausible = (x: number, y: number) => x >= -180 && x <= -50 && y >= 14 && y <= 84
  if (plausible(lng, lat)) return { longitude: lng, latitude: lat, swapped: false }
  if (plausible(lat, lng)) return { longitude: lat, latitude: lng, swapped: true }
  return null
}
