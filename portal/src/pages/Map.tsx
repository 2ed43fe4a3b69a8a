import type { Point } from "geojson"
import type { Map as MapLibreMap, MapGeoJSONFeature } from "maplibre-gl"
import { useEffect, useRef, useState } from "preact/hooks"
import { EVENT_TYPES, SEVERITIES } from "../../../shared/domain/Event.js"
import { FEATURE_GROUPS } from "../../../shared/domain/FeatureGroups.js"
import { ApiError, explain } from "../api.js"
import { fmt, sentence } from "../forms.js"
import { addDataLayers, CELL_LAYERS, eventLayerId, ITEM_LAYERS, setData } from "../map/dataLayers.js"
import { Details, type Selection } from "../map/Details.js"
import { type Get, sessionGet } from "../sessionCall.js"
import { GROUP_COLOURS, SEVERITY_COLOURS } from "../map/style.js"
import { QUALITY_FLAG_LABELS, type QualityFlag } from "../../../shared/domain/qualityFlags.js"

/** An event's quality flags in words, after its severity in the list. */
const flagLabels = (flags: unknown) =>
  typeof flags === "string" && flags !== ""
    ? ` · ${flags
        .split(",")
        .map((f) => QUALITY_FLAG_LABELS[f as QualityFlag] ?? f)
        .join(" · ")}`
    : ""
import { useBaseMap } from "../map/useBaseMap.js"
import { type Layered, loadEvents, loadFeatures, type MapFilters, type View } from "../map/viewData.js"
import { useSession } from "../session.js"
import { type JurisdictionChoice, JurisdictionOptions } from "../JurisdictionOptions.js"
import { rememberJurisdiction, startingJurisdiction } from "../startingJurisdiction.js"
import { Alert } from "../ui.js"

/** Events are asked again this often (the API's ETag makes an unchanged answer a 304); features change slowly. */
const EVENT_POLL_MS = 5_000
const FEATURE_POLL_MS = 60_000
const viewOf = (map: MapLibreMap): View => {
  const b = map.getBounds()
  const clamp = (v: number, lim: number) => Math.max(-lim, Math.min(lim, v))
  return {
    bbox: [clamp(b.getWest(), 180), clamp(b.getSouth(), 85), clamp(b.getEast(), 180), clamp(b.getNorth(), 85)],
    zoom: map.getZoom()
  }
}

interface Shown {
  readonly events: Layered
  readonly features: { items: Layered; cells: Layered }
  readonly at: Date
}

const describe = (s: Shown | null) => {
  if (!s) return "Loading what is in view…"
  const ev =
    s.events.mode === "cells"
      ? `${fmt(s.events.total)} events, counted in ${fmt(s.events.items.length)} areas (zoom in for each one)`
      : `${fmt(s.events.total)} events`
  const ft =
    s.features.cells.mode === "cells"
      ? `${fmt(s.features.items.total + s.features.cells.total)} features (some counted by area)`
      : `${fmt(s.features.items.total)} features`
  return `${ev} and ${ft} in view · updated ${s.at.toLocaleTimeString("en-GB")}`
}

/**
 * The live map: the service's own API drawn on a basemap built from bundled data. Few items in
 * view are drawn one by one; a crowded view is drawn as counts per H3 cell that the server
 * aggregates (/map/cells). Events are polled every 5 s; an unchanged answer costs a 304.
 */
export const MapPage = () => {
  const { customer } = useSession()
  const mapRef = useRef<MapLibreMap | null>(null)
  const [filters, setFilters] = useState<MapFilters>({
    jurisdiction: "",
    types: [...EVENT_TYPES],
    severities: [...SEVERITIES],
    status: "active",
    dedupe: false,
    groups: ["imagery", "parking"]
  })
  const filtersRef = useRef(filters)
  filtersRef.current = filters
  const [jurisdictions, setJurisdictions] = useState<ReadonlyArray<JurisdictionChoice>>([])
  const [shown, setShown] = useState<Shown | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [selection, setSelection] = useState<Selection | null>(null)
  const [ready, setReady] = useState(false)
  const pausedUntil = useRef(0)
  const latest = useRef<{ events: Layered | null; features: Shown["features"] | null }>({
    events: null,
    features: null
  })
  const generation = useRef({ events: 0, features: 0 })

  const customerId = customer?.id ?? 0
  const get: Get = sessionGet

  const failed = (e: unknown) => {
    if (e instanceof ApiError && e.status === 429) {
      pausedUntil.current = Date.now() + (e.retryAfterS ?? 30) * 1000
      setError(`Your plan's request rate is used up; the map resumes in ${e.retryAfterS ?? 30} s.`)
    } else if (e instanceof ApiError && e.body.code === "plan_jurisdiction") {
      setError("Your plan shows one jurisdiction at a time: choose one above.")
    } else setError(explain(e))
  }

  const publish = () => {
    const { events, features } = latest.current
    if (events && features) setShown({ events, features, at: new Date() })
  }

  /**
   * Asks for one kind of data for the current view and draws it; an answer overtaken by a newer
   * question of the same kind is dropped, so a slow answer never draws over a fresh one.
   */
  const refresher =
    <K extends "events" | "features">(
      kind: K,
      load: (view: View, f: MapFilters) => Promise<NonNullable<(typeof latest.current)[K]>>,
      draw: (map: MapLibreMap, v: NonNullable<(typeof latest.current)[K]>) => void
    ) =>
    async () => {
      const map = mapRef.current
      if (!map || Date.now() < pausedUntil.current) return
      const mine = ++generation.current[kind]
      try {
        const answer = await load(viewOf(map), filtersRef.current)
        if (mine !== generation.current[kind]) return
        draw(map, answer)
        latest.current[kind] = answer
        publish()
        if (kind === "events") setError(null)
      } catch (e) {
        if (mine === generation.current[kind]) failed(e)
      }
    }
  const refreshEvents = refresher(
    "events",
    (view, f) => loadEvents(get, view, f),
    (map, events) => {
      setData(map, "events", events.mode === "items" ? events.items : [])
      setData(map, "event-cells", events.mode === "cells" ? events.items : [])
    }
  )
  const refreshFeatures = refresher(
    "features",
    (view, f) => loadFeatures(get, view, f),
    (map, features) => {
      setData(map, "features", features.items.items)
      setData(map, "feature-cells", features.cells.items)
    }
  )

  useEffect(() => {
    if (!customerId) return
    get<Array<JurisdictionChoice & { country: string }>>("/jurisdictions?scope=state").then((j) => {
      setJurisdictions(j)
      // a plan that needs one jurisdiction starts where there is something to see: the last one
      // chosen here, else the one holding most events; every other plan sees them all
      if (customer?.plan_code === "free" && j[0])
        startingJurisdiction(customerId, get, j).then((code) =>
          setFilters((f) => ({ ...f, jurisdiction: f.jurisdiction || code }))
        )
    }, failed)
  }, [customerId])

  const timers = useRef<Array<ReturnType<typeof setInterval>>>([])
  useEffect(() => () => timers.current.forEach(clearInterval), [])
  const { host, failed: mapFailed } = useBaseMap(customerId !== 0, (map) => {
    mapRef.current = map
    addDataLayers(map)
    const pick = (f: MapGeoJSONFeature) => {
      const p = f.properties
      if (p.kind === "event-cell" || p.kind === "feature-cell") {
        map.easeTo({
          center: (f.geometry as Point).coordinates as [number, number],
          zoom: Math.min(map.getZoom() + 2.5, 16)
        })
      } else setSelection({ kind: p.kind === "event" ? "event" : "feature", id: String(p.id) })
    }
    map.on("click", (e) => {
      const hits = map.queryRenderedFeatures(e.point, { layers: [...ITEM_LAYERS, ...CELL_LAYERS] })
      // events above features, items above cells: the first hit in layer order is the top one
      const top = hits.find((h) => h.properties.kind === "event") ?? hits[0]
      if (top) pick(top)
    })
    for (const layer of [...ITEM_LAYERS, ...CELL_LAYERS]) {
      map.on("mouseenter", layer, () => (map.getCanvas().style.cursor = "pointer"))
      map.on("mouseleave", layer, () => (map.getCanvas().style.cursor = ""))
    }
    let moved: ReturnType<typeof setTimeout> | undefined
    map.on("moveend", () => {
      clearTimeout(moved)
      moved = setTimeout(() => {
        refreshEvents()
        refreshFeatures()
      }, 200)
    })
    setReady(true)
    timers.current = [setInterval(refreshEvents, EVENT_POLL_MS), setInterval(refreshFeatures, FEATURE_POLL_MS)]
  })

  useEffect(() => {
    if (!ready) return
    refreshEvents()
    refreshFeatures()
  }, [filters, ready])

  const toggle = (key: "types" | "severities" | "groups", value: string) =>
    setFilters((f) => ({
      ...f,
      [key]: f[key].includes(value) ? f[key].filter((v) => v !== value) : [...f[key], value]
    }))

  const eventsInView = shown?.events.mode === "items" ? shown.events.items.slice(0, 50) : []

  return (
    <div class="map-page">
      <h1>Live map</h1>
      <form class="map-filters" onSubmit={(e) => e.preventDefault()} aria-label="Map filters">
        <div class="field">
          <label for="map-j">Jurisdiction</label>
          <select
            id="map-j"
            value={filters.jurisdiction}
            onChange={(e) => {
              const code = (e.target as HTMLSelectElement).value
              rememberJurisdiction(customerId, code)
              setFilters({ ...filters, jurisdiction: code })
            }}
          >
            {customer?.plan_code !== "free" && <option value="">All</option>}
            <JurisdictionOptions list={jurisdictions} />
          </select>
        </div>
        <div class="field">
          <label for="map-status">Status</label>
          <select
            id="map-status"
            value={filters.status}
            onChange={(e) =>
              setFilters({ ...filters, status: (e.target as HTMLSelectElement).value as MapFilters["status"] })
            }
          >
            <option value="active">Active</option>
            <option value="archived">Ended</option>
            <option value="active,archived">Both</option>
          </select>
        </div>
        <fieldset class="chips">
          <legend>Severity</legend>
          {SEVERITIES.map((s) => (
            <label key={s} class="chip">
              <input
                type="checkbox"
                checked={filters.severities.includes(s)}
                onChange={() => toggle("severities", s)}
              />{" "}
              <span class="swatch" style={{ background: SEVERITY_COLOURS[s] }} /> {s}
            </label>
          ))}
        </fieldset>
        <label class="chip">
          <input
            type="checkbox"
            checked={filters.dedupe}
            onChange={() => setFilters({ ...filters, dedupe: !filters.dedupe })}
          />{" "}
          One report per event
        </label>
      </form>
      {(error || mapFailed) && <Alert kind="warning">{error ?? mapFailed}</Alert>}
      <div class="map-layout">
        <div class="map-canvas" ref={host} data-testid="map" role="region" aria-label="Map of events and features" />
        <div class="map-side">
          {selection ? (
            <Details selection={selection} get={get} open={setSelection} close={() => setSelection(null)} />
          ) : (
            <section aria-label="Legend" class="legend">
              <h2>Events</h2>
              <ul class="legend-list">
                {EVENT_TYPES.map((t) => (
                  <li key={t}>
                    <label>
                      <input
                        type="checkbox"
                        checked={filters.types.includes(t)}
                        onChange={() => toggle("types", t)}
                        data-layer={eventLayerId(t)}
                      />{" "}
                      {t.replace("_", " ")}
                    </label>
                  </li>
                ))}
              </ul>
              <p class="hint">
                Colour is severity:{" "}
                {SEVERITIES.map((s, i) => (
                  <span key={s}>
                    {i > 0 ? ", " : ""}
                    <span class="swatch" style={{ background: SEVERITY_COLOURS[s] }} /> {s}
                  </span>
                ))}
                . Closures have a black ring. A large circle counts many events; click it to zoom in.
              </p>
              <h2>Features</h2>
              <ul class="legend-list">
                {FEATURE_GROUPS.map((g) => (
                  <li key={g.id}>
                    <label title={g.description}>
                      <input
                        type="checkbox"
                        checked={filters.groups.includes(g.id)}
                        onChange={() => toggle("groups", g.id)}
                      />{" "}
                      <span class="swatch" style={{ background: GROUP_COLOURS[g.id] }} /> {g.name}
                    </label>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
      <p class="hint map-status" data-testid="map-status" role="status">
        {describe(shown)}
      </p>
      {(shown?.events.notes ?? []).length > 0 && (
        <Alert kind="info">
          <span data-testid="map-notes">{[...new Set(shown!.events.notes)].map(sentence).join(" ")}</span>
        </Alert>
      )}
      {eventsInView.length > 0 && (
        <details class="in-view">
          <summary>Events in view, as a list</summary>
          <ul>
            {eventsInView.map((e) => (
              <li key={String(e.properties.id)}>
                <button
                  type="button"
                  class="link-button"
                  onClick={() => setSelection({ kind: "event", id: String(e.properties.id) })}
                >
                  {String(e.properties.title || e.properties.type)}
                </button>{" "}
                <span class="hint">
                  {String(e.properties.severity)} · {String(e.properties.jurisdiction)}
                  {flagLabels(e.properties.flags)}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  )
}
