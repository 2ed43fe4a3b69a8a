import type { Map as MapLibreMap, Marker } from "maplibre-gl"

interface BaseFeature {
  readonly geometry: { readonly type: string; readonly coordinates: any }
  readonly properties: { readonly layer: string; readonly name?: string; readonly code?: string; readonly pop?: number }
}

interface Label {
  readonly text: string
  readonly lngLat: [number, number]
  readonly kind: "state" | "city"
  /** shown from this zoom on */
  readonly minZoom: number
  readonly maxZoom: number
  /** which of two colliding labels stays: states before cities, larger first */
  readonly priority: number
}

/** The area-weighted centre of a ring (shoelace), where a state's name sits. */
const ringCentre = (ring: ReadonlyArray<[number, number]>): { at: [number, number]; area: number } => {
  let [a, cx, cy] = [0, 0, 0]
  for (let i = 0; i < ring.length - 1; i++) {
    const [x0, y0] = ring[i]
    const [x1, y1] = ring[i + 1]
    const f = x0 * y1 - x1 * y0
    a += f
    cx += (x0 + x1) * f
    cy += (y0 + y1) * f
  }
  return a === 0 ? { at: ring[0], area: 0 } : { at: [cx / (3 * a), cy / (3 * a)], area: Math.abs(a / 2) }
}

/** Big states get their name early; small ones (RI, DE, DC) only once zoomed in. Cities by population. */
export const labelsOf = (features: ReadonlyArray<BaseFeature>): Array<Label> => {
  const out: Array<Label> = []
  for (const f of features) {
    if (f.properties.layer === "state" && f.geometry.type === "MultiPolygon") {
      const best = (f.geometry.coordinates as Array<Array<Array<[number, number]>>>)
        .map((p) => ringCentre(p[0]))
        .sort((x, y) => y.area - x.area)[0]
      if (!best) continue
      out.push({
        text: f.properties.name ?? "",
        lngLat: best.at,
        kind: "state",
        minZoom: best.area > 20 ? 2 : best.area > 3 ? 4 : 6,
        maxZoom: 9,
        priority: 1e9 + best.area
      })
    } else if (f.properties.layer === "place") {
      const pop = f.properties.pop ?? 0
      out.push({
        text: f.properties.name ?? "",
        lngLat: f.geometry.coordinates,
        kind: "city",
        minZoom: pop >= 4_000_000 ? 2 : pop >= 1_500_000 ? 4 : pop >= 500_000 ? 5.5 : 7,
        maxZoom: 24,
        priority: pop
      })
    }
  }
  return out
}

/** A label's box on screen, px: its centre and size. */
export interface LabelBox {
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

/** The size a label takes, px, as the stylesheet sets it (11–12 px text; states in spaced capitals). */
export const labelSize = (l: Pick<Label, "text" | "kind">) =>
  l.kind === "state" ? { w: l.text.length * 8.6 + 4, h: 15 } : { w: l.text.length * 6.8 + 13, h: 16 }

/** Labels never nearer each other than this, px: room for the halo. */
const GAP = 4

const overlap = (a: LabelBox, b: LabelBox) =>
  Math.abs(a.x - b.x) * 2 < a.w + b.w + GAP * 2 && Math.abs(a.y - b.y) * 2 < a.h + b.h + GAP * 2

/**
 * Which labels to show at a zoom: those whose zoom range holds it, placed by priority, each only
 * where it touches none placed before it. Boxes depend on the zoom alone (Web Mercator is the
 * same map shifted as it pans), so this runs once per zoom.
 */
export const placeLabels = (
  labels: ReadonlyArray<Pick<Label, "text" | "kind" | "minZoom" | "maxZoom" | "priority" | "lngLat">>,
  zoom: number,
  project: (lngLat: [number, number]) => { x: number; y: number }
): Set<number> => {
  const order = labels
    .map((l, i) => i)
    .filter((i) => zoom >= labels[i].minZoom && zoom < labels[i].maxZoom)
    .sort((a, b) => labels[b].priority - labels[a].priority || a - b)
  const placed: Array<LabelBox> = []
  const shown = new Set<number>()
  for (const i of order) {
    const p = project(labels[i].lngLat)
    const box = { x: p.x, y: p.y, ...labelSize(labels[i]) }
    if (placed.some((q) => overlap(box, q))) continue
    placed.push(box)
    shown.add(i)
  }
  return shown
}

/**
 * Names as HTML markers (no glyph server can be reached, so the map cannot draw text itself).
 * They are decoration for sighted readers: hidden from assistive technology, never focusable,
 * and shown only where they do not touch each other at the zoom (placeLabels).
 */
export const addLabels = (
  maplibre: { Marker: new (o: { element: HTMLElement; anchor?: "center" }) => Marker },
  map: MapLibreMap,
  labels: ReadonlyArray<Label>
) => {
  const markers = labels.map((l) => {
    const el = document.createElement("div")
    el.className = `map-label map-label-${l.kind}`
    el.textContent = l.text
    el.setAttribute("aria-hidden", "true")
    const m = new maplibre.Marker({ element: el, anchor: "center" }).setLngLat(l.lngLat)
    return { l, m, el, shown: false }
  })
  const update = () => {
    const shown = placeLabels(labels, map.getZoom(), (at) => map.project(at))
    markers.forEach((x, i) => {
      const show = shown.has(i)
      if (show && !x.shown) x.m.addTo(map)
      if (!show && x.shown) x.m.remove()
      x.shown = show
    })
  }
  map.on("zoomend", update)
  update()
}
