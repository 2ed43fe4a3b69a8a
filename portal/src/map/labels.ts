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
        maxZoom: 9
      })
    } else if (f.properties.layer === "place") {
      const pop = f.properties.pop ?? 0
      out.push({
        text: f.properties.name ?? "",
        lngLat: f.geometry.coordinates,
        kind: "city",
        minZoom: pop >= 4_000_000 ? 2 : pop >= 1_500_000 ? 4 : pop >= 500_000 ? 5.5 : 7,
        maxZoom: 24
      })
    }
  }
  return out
}

/**
 * Names as HTML markers (no glyph server can be reached, so the map cannot draw text itself).
 * They are decoration for sighted readers: hidden from assistive technology, never focusable,
 * and shown only at zooms where they do not crowd each other.
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
    const z = map.getZoom()
    for (const x of markers) {
      const show = z >= x.l.minZoom && z < x.l.maxZoom
      if (show && !x.shown) x.m.addTo(map)
      if (!show && x.shown) x.m.remove()
      x.shown = show
    }
  }
  map.on("zoomend", update)
  update()
}
