import type { FeatureCollection } from "geojson"
import type { ExpressionSpecification, StyleSpecification } from "maplibre-gl"
import { SEVERITIES } from "../../../shared/domain/Event.js"
import { FEATURE_GROUPS } from "../../../shared/domain/FeatureGroups.js"

/** Severity by colour, from a calm yellow to a deep red; each passes 3:1 against the land colour. */
export const SEVERITY_COLOURS: Record<(typeof SEVERITIES)[number], string> = {
  minor: "#b8860b",
  moderate: "#e4572e",
  major: "#c1121f",
  critical: "#6a040f"
}

/** One colour per feature group, far from the severity reds. */
const GROUP_PALETTE = [
  "#1d4ed8",
  "#0f766e",
  "#0e7490",
  "#7c3aed",
  "#15803d",
  "#4338ca",
  "#059669",
  "#0369a1",
  "#a16207",
  "#9333ea",
  "#be185d",
  "#475569",
  "#2563eb",
  "#0891b2",
  "#65a30d",
  "#334155"
]
export const GROUP_COLOURS: Record<string, string> = Object.fromEntries(
  FEATURE_GROUPS.map((g, i) => [g.id, GROUP_PALETTE[i % GROUP_PALETTE.length]])
)

export const severityColour: ExpressionSpecification = [
  "match",
  ["get", "severity"],
  "critical",
  SEVERITY_COLOURS.critical,
  "major",
  SEVERITY_COLOURS.major,
  "moderate",
  SEVERITY_COLOURS.moderate,
  "minor",
  SEVERITY_COLOURS.minor,
  "#64748b"
]

const isLayer = (name: string): ExpressionSpecification => ["==", ["get", "layer"], name]

/**
 * The basemap: water behind everything, states and provinces with their lakes, and the routing network's
 * highways by class. No glyphs can be fetched, so names are drawn as HTML labels (labels.ts).
 */
export const basemapStyle = (basemap: unknown): StyleSpecification => ({
  version: 8,
  sources: { base: { type: "geojson", data: basemap as FeatureCollection } },
  layers: [
    { id: "water", type: "background", paint: { "background-color": "#d7e4ec" } },
    {
      id: "land",
      type: "fill",
      source: "base",
      filter: isLayer("state"),
      paint: { "fill-color": ["match", ["get", "country"], "CA", "#f1efe8", "#f8f6f0"] }
    },
    { id: "lakes", type: "fill", source: "base", filter: isLayer("lake"), paint: { "fill-color": "#d7e4ec" } },
    {
      id: "roads-trunk",
      type: "line",
      source: "base",
      filter: ["all", isLayer("road"), ["==", ["get", "class"], "trunk"]],
      layout: { "line-join": "round", "line-cap": "round" },
      paint: { "line-color": "#e9c46a", "line-width": ["interpolate", ["linear"], ["zoom"], 3, 0.3, 7, 1.2, 12, 3] }
    },
    {
      id: "roads-motorway",
      type: "line",
      source: "base",
      filter: ["all", isLayer("road"), ["==", ["get", "class"], "motorway"]],
      layout: { "line-join": "round", "line-cap": "round" },
      paint: { "line-color": "#dd8a4e", "line-width": ["interpolate", ["linear"], ["zoom"], 3, 0.6, 7, 1.8, 12, 4.5] }
    },
    {
      id: "borders",
      type: "line",
      source: "base",
      filter: isLayer("state"),
      paint: {
        "line-color": "#9c9283",
        "line-width": ["interpolate", ["linear"], ["zoom"], 3, 0.6, 8, 1.4],
        "line-dasharray": [3, 1.5]
      }
    }
  ]
})
