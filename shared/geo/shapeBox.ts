import { isPosition } from "./representativePoint.js"

/** [minLng, minLat, maxLng, maxLat] */
export type ShapeBox = [number, number, number, number]

/**
 * The box around an event's shape: every usable position of its geometry, however nested, and
 * its own point. It holds every vertex linking measures (a superset when the geometry is odd), so
 * a search by box overlap finds every event linking could judge near.
 */
export const shapeBox = (
  geometry: { readonly coordinates?: unknown } | null,
  latitude: number,
  longitude: number
): ShapeBox => {
  const box: ShapeBox = [longitude, latitude, longitude, latitude]
  const walk = (c: unknown, depth: number): void => {
    if (!Array.isArray(c) || depth > 6) return
    if (isPosition(c)) {
      if (c[0] < box[0]) box[0] = c[0]
      if (c[1] < box[1]) box[1] = c[1]
      if (c[0] > box[2]) box[2] = c[0]
      if (c[1] > box[3]) box[3] = c[1]
      return
    }
    for (const x of c) walk(x, depth + 1)
  }
  if (geometry !== null && typeof geometry === "object") walk(geometry.coordinates, 0)
  return box
}

/**
 * A box grown by `meters` on every side, wide enough in longitude at the highest latitude it
 * reaches (and a tenth more): any shape within `meters` of the box overlaps the grown one.
 */
export const grownBox = (b: ShapeBox, meters: number): ShapeBox => {
  const dLat = (meters / 110_000) * 1.1
  const highest = Math.min(89, Math.max(Math.abs(b[1]), Math.abs(b[3])) + dLat)
  const dLng = Math.min(180, ((meters / 111_000) * 1.1) / Math.cos((highest * Math.PI) / 180))
  return [b[0] - dLng, b[1] - dLat, b[2] + dLng, b[3] + dLat]
}
