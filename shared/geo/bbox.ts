import * as turf from "@turf/turf"

/** The geometry's bounding box as row columns; null when it has no usable coordinates. */
export const bboxOf = (g: { type: string; coordinates: unknown } | null) => {
  if (!g) return null
  try {
    const [minLng, minLat, maxLng, maxLat] = turf.bbox({ type: g.type, coordinates: g.coordinates } as never)
    return [minLng, minLat, maxLng, maxLat].every(Number.isFinite)
      ? { min_lat: minLat, min_lng: minLng, max_lat: maxLat, max_lng: maxLng }
      : null
  } catch {
    return null
  }
}
