import { distance } from "geokdbush"

/** Great-circle metres between two points (geokdbush's haversine, R = 6371 km). */
export const haversineM = (lat1: number, lng1: number, lat2: number, lng2: number) =>
  distance(lng1, lat1, lng2, lat2) * 1000

/**
 * Metres from a point to the segment between two points, on a plane tangent at the point: exact
 * enough within a few kilometres, which is as far as a structure is matched to a road.
 */
export const metresToSegment = (lat: number, lng: number, aLat: number, aLng: number, bLat: number, bLng: number) => {
  const kx = 111_320 * Math.cos((lat * Math.PI) / 180)
  const ky = 110_574
  const [ax, ay, bx, by] = [(aLng - lng) * kx, (aLat - lat) * ky, (bLng - lng) * kx, (bLat - lat) * ky]
  const [dx, dy] = [bx - ax, by - ay]
  const t = dx === 0 && dy === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)))
  return Math.hypot(ax + t * dx, ay + t * dy)
}
