import type { Map as MapLibreMap } from "maplibre-gl"
import { useEffect, useRef, useState } from "preact/hooks"
import { addStylesheet } from "../stylesheet.js"
import { addLabels, labelsOf } from "./labels.js"
import { basemapStyle } from "./style.js"

declare const MAPLIBRE_CSS_HREF: string
declare const MAPLIBRE_WORKER_HREF: string
declare const BASEMAP_HREF: string

export type MapLibre = typeof import("maplibre-gl")
const US_CANADA: [[number, number], [number, number]] = [
  [-128, 23],
  [-62, 55]
]
const CREDIT = "Boundaries and places: Made with Natural Earth · Highways: Travel Mapping, © OpenStreetMap contributors"

/**
 * A MapLibre map on the bundled basemap in `host`, with zoom buttons, a scale and the data's
 * credits; `onLoad` runs once the style is drawn (add sources and layers there). The library
 * (1.1 MB) loads only on the pages that draw a map. The map is on `window.__roadDataMap` for the
 * browser tests, which count what it draws through its own query API.
 */
export const useBaseMap = (enabled: boolean, onLoad: (map: MapLibreMap, maplibre: MapLibre) => void) => {
  const host = useRef<HTMLDivElement>(null)
  const [map, setMap] = useState<MapLibreMap | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  useEffect(() => {
    if (!enabled) return
    addStylesheet(MAPLIBRE_CSS_HREF)
    let gone = false
    let made: MapLibreMap | null = null
    Promise.all([import("maplibre-gl"), fetch(BASEMAP_HREF).then((r) => r.json())]).then(
      ([maplibre, basemap]) => {
        if (gone || !host.current) return
        maplibre.setWorkerUrl(MAPLIBRE_WORKER_HREF)
        const m = new maplibre.Map({
          container: host.current,
          style: basemapStyle(basemap),
          bounds: US_CANADA,
          minZoom: 2,
          maxZoom: 16,
          renderWorldCopies: false,
          attributionControl: { compact: true, customAttribution: CREDIT },
          dragRotate: false,
          pitchWithRotate: false
        })
        made = m
        m.addControl(new maplibre.NavigationControl({ showCompass: false }), "top-right")
        m.addControl(new maplibre.ScaleControl({ unit: "metric" }), "bottom-left")
        ;(window as unknown as { __roadDataMap?: MapLibreMap }).__roadDataMap = m
        m.on("load", () => {
          // the basemap is drawn: bench:map reads this mark as its floor for the first render
          performance.mark("road-map:basemap")
          addLabels(maplibre, m, labelsOf((basemap as { features: ReadonlyArray<any> }).features))
          onLoad(m, maplibre)
          setMap(m)
        })
      },
      () => setFailed("the map could not be loaded; reload the page")
    )
    return () => {
      gone = true
      made?.remove()
    }
  }, [enabled])
  return { host, map, failed }
}
