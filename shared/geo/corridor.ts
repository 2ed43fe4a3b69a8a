import * as turf from "@turf/turf"
import type { Feature, LineString } from "geojson"
import { getHexagonAreaAvg, getHexagonEdgeLengthAvg, gridDisk, latLngToCell } from "h3-js"
import { type CellCover, RESOLUTIONS, type Resolution } from "./h3cells.js"

/**
 * The truck corridor of SPEC §4.3: the great-circle line between two points, buffered by a
 * distance. Distances here are great-circle (turf's geodesic methods), in km.
 */
export interface Corridor {
  readonly line: Feature<LineString>
  readonly lengthKm: number
  readonly bufferKm: number
}

/** Corridor cell covers stay around this many cells (estimated from the band's area). */
const TARGET_CELLS = 1500

const resolutionFor = (lengthKm: number, bufferKm: number): Resolution => {
  const area = 2 * bufferKm * lengthKm + Math.PI * bufferKm * bufferKm
  return RESOLUTIONS.find((r) => area / getHexagonAreaAvg(r, "km2") <= TARGET_CELLS) ?? 3
}

/** Points every `stepKm` along the great circle from a to b, both ends included. */
const sampleGreatCircle = (
  a: Array<number>,
  b: Array<number>,
  lengthKm: number,
  stepKm: number
): Array<Array<number>> => {
  if (lengthKm < 0.001) return [a, b]
  const n = Math.max(1, Math.ceil(lengthKm / stepKm))
  const seg = turf.lineString([a, b])
  const out = [a]
  for (let i = 1; i < n; i++)
    out.push(turf.along(seg, (lengthKm * i) / n, { units: "kilometers" }).geometry.coordinates)
  out.push(b)
  return out
}

export const makeCorridor = (
  from: { lat: number; lng: number },
  to: { lat: number; lng: number },
  bufferKm: number
): Corridor => {
  const a = [from.lng, from.lat]
  const b = [to.lng, to.lat]
  const lengthKm = turf.distance(a, b, { units: "kilometers" })
  // about one point every 10 km (at most 500): the polyline then follows the great circle closely
  const line = turf.lineString(sampleGreatCircle(a, b, lengthKm, Math.max(10, lengthKm / 500)))
  return { line, lengthKm, bufferKm }
}

/**
 * Cells containing the whole band (a prefilter; the exact test is placeOnCorridor). Built from H3
 * disks around points sampled along the line, so it holds at the poles and across the
 * antimeridian, where projected buffers fail. The disk radius assumes cells half the average size.
 */
export const coverCorridor = (c: Corridor): CellCover => {
  const res = resolutionFor(c.lengthKm, c.bufferKm)
  const edge = getHexagonEdgeLengthAvg(res, "km")
  const k = Math.ceil((c.bufferKm + edge / 2 + edge) / (Math.sqrt(3) * edge * 0.5))
  const coords = c.line.geometry.coordinates
  const cells = new Set<string>()
  for (let i = 0; i + 1 < coords.length; i++) {
    const km = turf.distance(coords[i], coords[i + 1], { units: "kilometers" })
    for (const [lng, lat] of sampleGreatCircle(coords[i], coords[i + 1], km, edge)) {
      for (const h of gridDisk(latLngToCell(lat, lng, res), k)) cells.add(h)
    }
  }
  return { res, cells: [...cells].map((h) => BigInt("0x" + h).toString()) }
}

const nearest = (c: Corridor, lng: number, lat: number) => {
  const p = turf.nearestPointOnLine(c.line, [lng, lat], { units: "kilometers" })
  return {
    distanceKm: p.properties.pointDistance ?? p.properties.dist ?? 0,
    alongKm: p.properties.totalDistance ?? p.properties.location ?? 0
  }
}

const vertices = (g: { type: string; coordinates: unknown }): Array<Array<number>> => {
  switch (g.type) {
    case "Point":
      return [g.coordinates as Array<number>]
    case "MultiPoint":
    case "LineString":
      return g.coordinates as Array<Array<number>>
    case "MultiLineString":
    case "Polygon":
      return (g.coordinates as Array<Array<Array<number>>>).flat()
    case "MultiPolygon":
      return (g.coordinates as Array<Array<Array<Array<number>>>>).flat(2)
    default:
      return []
  }
}

/**
 * Great-circle distance from a feature (its geometry, else its point) to the corridor line, and
 * how far along the corridor its nearest part lies. A geometry crossing the line is at 0 km.
 */
export const placeOnCorridor = (
  c: Corridor,
  f: { latitude: number; longitude: number; geometry: { type: string; coordinates: unknown } | null }
) => {
  const g = f.geometry
  if (!g || g.type === "Point") return nearest(c, f.longitude, f.latitude)
  let best = { distanceKm: Number.POSITIVE_INFINITY, alongKm: 0 }
  for (const v of vertices(g)) {
    const n = nearest(c, v[0], v[1])
    if (n.distanceKm < best.distanceKm) best = n
  }
  if (
    best.distanceKm > 0 &&
    (g.type === "LineString" || g.type === "MultiLineString" || g.type === "Polygon" || g.type === "MultiPolygon")
  ) {
    const crossing = turf.lineIntersect(c.line, g as never)
    if (crossing.features.length > 0) {
      const at = crossing.features[0].geometry.coordinates
      best = { distanceKm: 0, alongKm: nearest(c, at[0], at[1]).alongKm }
    } else {
      // the corridor's ends may lie closest to the middle of a long segment of the geometry
      for (const end of [
        c.line.geometry.coordinates[0],
        c.line.geometry.coordinates[c.line.geometry.coordinates.length - 1]
      ]) {
        const lines =
          g.type === "LineString"
            ? [g.coordinates as Array<Array<number>>]
            : g.type === "MultiLineString" || g.type === "Polygon"
              ? (g.coordinates as Array<Array<Array<number>>>)
              : (g.coordinates as Array<Array<Array<Array<number>>>>).flat()
        for (const l of lines) {
          if (l.length < 2) continue
          const d = turf.pointToLineDistance(end as [number, number], turf.lineString(l), { units: "kilometers" })
          if (d < best.distanceKm) best = { distanceKm: d, alongKm: nearest(c, end[0], end[1]).alongKm }
        }
      }
    }
  }
  return best
}
