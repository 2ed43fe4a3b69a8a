import type { Feature } from "geojson"
import type { GeoJSONSource, Map as MapLibreMap } from "maplibre-gl"
import { EVENT_TYPES } from "../../../shared/domain/Event.js"
import { FEATURE_GROUPS } from "../../../shared/domain/FeatureGroups.js"
import { GROUP_COLOURS, severityColour } from "./style.js"
import type { MapItem } from "./viewData.js"

export const SOURCES = ["events", "event-cells", "features", "feature-cells"] as const
export type SourceId = (typeof SOURCES)[number]

/** One layer per event type and per feature group (points, and lines kept as lines): the legend's entries. */
export const eventLayerId = (type: string) => `events-${type}`
export const featurePointLayerId = (group: string) => `features-${group}-points`
export const featureLineLayerId = (group: string) => `features-${group}-lines`
export const CELL_LAYERS = ["event-cells", "feature-cells"] as const

export const ITEM_LAYERS = [
  ...EVENT_TYPES.map(eventLayerId),
  ...FEATURE_GROUPS.flatMap((g) => [featurePointLayerId(g.id), featureLineLayerId(g.id)])
]

const isLine = [
  "in",
  ["geometry-type"],
  ["literal", ["LineString", "MultiLineString", "Polygon", "MultiPolygon"]]
] as const

/** A circle's radius grows with the square root of what it counts, so its area tells the count. */
const countRadius = ["interpolate", ["linear"], ["sqrt", ["get", "count"]], 1, 7, 10, 16, 100, 34] as const

export const addDataLayers = (map: MapLibreMap) => {
  for (const id of SOURCES) map.addSource(id, { type: "geojson", data: { type: "FeatureCollection", features: [] } })
  map.addLayer({
    id: "feature-cells",
    type: "circle",
    source: "feature-cells",
    paint: {
      "circle-color": "#1e3a8a",
      "circle-opacity": 0.55,
      "circle-radius": countRadius as any,
      "circle-stroke-color": "#ffffff",
      "circle-stroke-width": 1
    }
  })
  for (const g of FEATURE_GROUPS) {
    const colour = GROUP_COLOURS[g.id]
    map.addLayer({
      id: featureLineLayerId(g.id),
      type: "line",
      source: "features",
      filter: ["all", ["==", ["get", "group"], g.id], isLine as any],
      layout: { "line-cap": "round", "line-join": "round" },
      paint: {
        "line-color": colour,
        "line-width": ["interpolate", ["linear"], ["zoom"], 4, 2, 12, 5],
        "line-opacity": 0.85
      }
    })
    map.addLayer({
      id: featurePointLayerId(g.id),
      type: "circle",
      source: "features",
      filter: ["all", ["==", ["get", "group"], g.id], ["==", ["geometry-type"], "Point"]],
      paint: {
        "circle-color": colour,
        "circle-radius": ["interpolate", ["linear"], ["zoom"], 3, 3.5, 10, 6],
        "circle-stroke-color": "#ffffff",
        "circle-stroke-width": 1.2
      }
    })
  }
  map.addLayer({
    id: "event-cells",
    type: "circle",
    source: "event-cells",
    paint: {
      "circle-color": severityColour,
      "circle-opacity": 0.7,
      "circle-radius": countRadius as any,
      "circle-stroke-color": "#ffffff",
      "circle-stroke-width": 1.5
    }
  })
  for (const t of EVENT_TYPES) {
    map.addLayer({
      id: eventLayerId(t),
      type: "circle",
      source: "events",
      filter: ["==", ["get", "type"], t],
      paint: {
        "circle-color": severityColour,
        "circle-radius": ["interpolate", ["linear"], ["zoom"], 3, 5, 10, 8],
        // closures ring black so they read at a glance, whatever their severity
        "circle-stroke-color": t === "closure" ? "#111827" : "#ffffff",
        "circle-stroke-width": t === "closure" ? 2.5 : 1.5
      }
    })
  }
}

export const setData = (map: MapLibreMap, id: SourceId, items: ReadonlyArray<MapItem>) =>
  (map.getSource(id) as GeoJSONSource | undefined)?.setData({
    type: "FeatureCollection",
    features: items as Array<Feature>
  })
