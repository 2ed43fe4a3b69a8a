import type { FeatureCollection } from "geojson"
import type { GeoJSONSource, Map as MapLibreMap } from "maplibre-gl"
import type { RouteResponse } from "../../../shared/routing/plan/answerSchemas.js"

export type RouteAnswer = typeof RouteResponse.Type

export const WARNING_COLOURS = { info: "#0369a1", warning: "#b45309", critical: "#b91c1c" } as const
export const ROUTE_LAYERS = { warnings: "route-warnings", stops: "route-stops", hos: "route-hos" } as const

const empty: FeatureCollection = { type: "FeatureCollection", features: [] }

/** A point to put a marker on: the geometry's own point, or its first position. */
const pointOf = (g: { type: string; coordinates: unknown }): [number, number] | null => {
  let c: unknown = g.coordinates
  while (Array.isArray(c) && Array.isArray(c[0])) c = c[0]
  return Array.isArray(c) && typeof c[0] === "number" && typeof c[1] === "number" ? [c[0], c[1]] : null
}

export const addRouteLayers = (map: MapLibreMap) => {
  for (const id of ["routes", "route-points"]) map.addSource(id, { type: "geojson", data: empty })
  map.addLayer({
    id: "route-alternatives",
    type: "line",
    source: "routes",
    filter: ["!=", ["get", "chosen"], true],
    layout: { "line-cap": "round", "line-join": "round" },
    paint: { "line-color": "#64748b", "line-width": 4, "line-opacity": 0.75, "line-dasharray": [2, 1.5] }
  })
  map.addLayer({
    id: "route-casing",
    type: "line",
    source: "routes",
    filter: ["==", ["get", "chosen"], true],
    layout: { "line-cap": "round", "line-join": "round" },
    paint: { "line-color": "#ffffff", "line-width": 8 }
  })
  map.addLayer({
    id: "route-chosen",
    type: "line",
    source: "routes",
    filter: ["==", ["get", "chosen"], true],
    layout: { "line-cap": "round", "line-join": "round" },
    paint: { "line-color": "#1d4ed8", "line-width": 5 }
  })
  map.addLayer({
    id: ROUTE_LAYERS.stops,
    type: "circle",
    source: "route-points",
    filter: ["==", ["get", "kind"], "stop"],
    paint: { "circle-color": "#15803d", "circle-radius": 6, "circle-stroke-color": "#fff", "circle-stroke-width": 1.5 }
  })
  map.addLayer({
    id: ROUTE_LAYERS.hos,
    type: "circle",
    source: "route-points",
    filter: ["==", ["get", "kind"], "hos"],
    paint: { "circle-color": "#7c3aed", "circle-radius": 8, "circle-stroke-color": "#fff", "circle-stroke-width": 2 }
  })
  map.addLayer({
    id: ROUTE_LAYERS.warnings,
    type: "circle",
    source: "route-points",
    filter: ["==", ["get", "kind"], "warning"],
    paint: {
      "circle-color": [
        "match",
        ["get", "severity"],
        "critical",
        WARNING_COLOURS.critical,
        "warning",
        WARNING_COLOURS.warning,
        WARNING_COLOURS.info
      ],
      "circle-radius": 7,
      "circle-stroke-color": "#fff",
      "circle-stroke-width": 2
    }
  })
}

/** Draws every route of an answer (the chosen one on top), its warnings, HOS stops and suggested stops. */
export const showRoutes = (map: MapLibreMap, answer: RouteAnswer | null, chosen: number) => {
  const routes = answer?.routes ?? []
  ;(map.getSource("routes") as GeoJSONSource | undefined)?.setData({
    type: "FeatureCollection",
    features: routes.map((r, i) => ({
      type: "Feature",
      properties: { index: i, chosen: i === chosen },
      geometry: r.geometry as any
    }))
  })
  const route = routes[chosen]
  const points: FeatureCollection["features"] = []
  if (route) {
    route.warnings.forEach((w, i) => {
      const at = pointOf(w.geometry)
      if (at)
        points.push({
          type: "Feature",
          properties: { kind: "warning", index: i, severity: w.severity },
          geometry: { type: "Point", coordinates: at }
        })
    })
    const line = route.geometry.coordinates
    ;(route.hos ?? []).forEach((h, i) => {
      // where the plan stops: its first suggestion's place, else the line's point nearest that far along
      const stop = h.suggested_stops[0]
      const at = stop
        ? pointOf(stop.geometry)
        : line.length > 0
          ? alongLine(line as Array<[number, number]>, h.distance_along_route_m)
          : null
      if (at)
        points.push({
          type: "Feature",
          properties: { kind: "hos", index: i },
          geometry: { type: "Point", coordinates: at }
        })
      for (const s of h.suggested_stops.slice(1)) {
        const p = pointOf(s.geometry)
        if (p)
          points.push({
            type: "Feature",
            properties: { kind: "stop", index: i, id: s.id },
            geometry: { type: "Point", coordinates: p }
          })
      }
    })
  }
  ;(map.getSource("route-points") as GeoJSONSource | undefined)?.setData({
    type: "FeatureCollection",
    features: points
  })
}

const RAD = Math.PI / 180
const metres = (a: [number, number], b: [number, number]) => {
  const dLat = (b[1] - a[1]) * RAD
  const dLng = (b[0] - a[0]) * RAD
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLng / 2) ** 2
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)))
}

/**
 * The point `m` metres along a line (measured as drawn; the route's own lengths are calibrated, so this is
 * approximate).
 */
const alongLine = (line: ReadonlyArray<[number, number]>, m: number): [number, number] => {
  let left = m
  for (let i = 1; i < line.length; i++) {
    const d = metres(line[i - 1], line[i])
    if (d >= left) {
      const t = d === 0 ? 0 : left / d
      return [line[i - 1][0] + (line[i][0] - line[i - 1][0]) * t, line[i - 1][1] + (line[i][1] - line[i - 1][1]) * t]
    }
    left -= d
  }
  return line[line.length - 1]
}
