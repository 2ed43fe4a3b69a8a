import type { Event as ApiEvent, EventPage } from "../../../api/schemas/events.js"
import type { FeaturePage } from "../../../api/schemas/features.js"
import type { MapCells } from "../../../api/schemas/map.js"
import { groupById } from "../../../shared/domain/FeatureGroups.js"
import type { Get } from "../sessionCall.js"

export type EventRow = typeof ApiEvent.Type
type Page<T> = {
  readonly data: ReadonlyArray<T>
  readonly total: number
  readonly limit: number
  readonly next_cursor?: string | undefined
}

/** What the map asks for; the legend's and the filter bar's state. */
export interface MapFilters {
  /** "" = every jurisdiction the plan may see */
  readonly jurisdiction: string
  readonly types: ReadonlyArray<string>
  readonly severities: ReadonlyArray<string>
  readonly status: "active" | "archived" | "active,archived"
  readonly dedupe: boolean
  readonly groups: ReadonlyArray<string>
}

export interface View {
  readonly bbox: readonly [number, number, number, number]
  readonly zoom: number
}

/** A view holding more than this many pages of items is drawn as counts per cell instead. */
const ITEM_PAGES = 4

type Geometry = { readonly type: string; readonly coordinates: unknown }
export interface MapItem {
  readonly type: "Feature"
  readonly geometry: Geometry
  readonly properties: Record<string, string | number | boolean | null>
}
export interface Layered {
  /** items: every match drawn; cells: counts per H3 cell (the view holds too many) */
  readonly mode: "items" | "cells" | "none"
  readonly items: ReadonlyArray<MapItem>
  /** matches in view (a feature line counts in each cell it crosses when mode is cells) */
  readonly total: number
  /** what the answer said of itself (a delayed plan, an unknown filter value), in words */
  readonly notes?: ReadonlyArray<string>
}

const notesOf = (warnings: ReadonlyArray<{ readonly message: string }> | undefined) =>
  (warnings ?? []).map((w) => w.message)

const query = (pairs: Record<string, string | undefined>) =>
  Object.entries(pairs)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join("&")

const bboxParam = (v: View) => v.bbox.map((x) => x.toFixed(5)).join(",")

/** Every page of a list while the answer stays small: the API's own cursor paging. */
const allPages = async <T>(get: Get, path: string, first: Page<T>): Promise<ReadonlyArray<T>> => {
  const rows = [...first.data]
  let next = first.next_cursor
  while (next) {
    const page = await get<Page<T>>(`${path}&cursor=${encodeURIComponent(next)}`)
    rows.push(...page.data)
    next = page.next_cursor
  }
  return rows
}

const cellItems = (cells: typeof MapCells.Type, kind: "event-cell" | "feature-cell"): Layered => ({
  mode: "cells",
  total: cells.total,
  items: cells.data.map((c) => ({
    type: "Feature",
    geometry: { type: "Point", coordinates: [c.longitude, c.latitude] },
    properties: { kind, cell: c.cell, count: c.count, severity: c.severity, top_type: c.top_type }
  }))
})

export const eventItem = (e: EventRow): MapItem => ({
  type: "Feature",
  geometry: { type: "Point", coordinates: [e.longitude, e.latitude] },
  properties: {
    kind: "event",
    id: e.id,
    type: e.type,
    severity: e.severity,
    status: e.status,
    title: e.title,
    jurisdiction: e.jurisdiction,
    // MapLibre keeps properties flat: the flags travel as one text
    flags: e.quality_flags.join(",")
  }
})

/** Events in view: the items when they are few, else counts per cell (server-side aggregation). */
export const loadEvents = async (get: Get, view: View, f: MapFilters): Promise<Layered> => {
  if (f.types.length === 0 || f.severities.length === 0) return { mode: "none", items: [], total: 0 }
  const filters = {
    jurisdiction: f.jurisdiction,
    type: f.types.join(","),
    severity: f.severities.join(","),
    status: f.status,
    dedupe: f.dedupe ? "true" : undefined,
    bbox: bboxParam(view)
  }
  const path = `/events?${query(filters)}&limit=1000`
  const first = await get<typeof EventPage.Type>(path)
  if (first.total <= first.limit * ITEM_PAGES) {
    const rows = await allPages(get, path, first)
    return { mode: "items", total: first.total, items: rows.map(eventItem), notes: notesOf(first.warnings) }
  }
  const cells = await get<typeof MapCells.Type>(
    `/map/cells?layer=events&zoom=${view.zoom.toFixed(2)}&${query(filters)}`
  )
  return { ...cellItems(cells, "event-cell"), notes: notesOf(cells.warnings) }
}

type FeatureRow = (typeof FeaturePage.Type)["data"][number]

const featureItem =
  (group: string) =>
  (r: FeatureRow): MapItem => ({
    type: "Feature",
    geometry: (r.geometry as Geometry | null) ?? { type: "Point", coordinates: [r.longitude, r.latitude] },
    properties: {
      kind: "feature",
      id: r.id,
      group,
      feature_type: r.feature_type,
      name: r.name,
      jurisdiction: r.jurisdiction
    }
  })

/** Features of each chosen group: items per group while few; the crowded groups together as cells. */
export const loadFeatures = async (
  get: Get,
  view: View,
  f: MapFilters
): Promise<{ items: Layered; cells: Layered }> => {
  const groups = f.groups.filter((g) => groupById.has(g))
  // what is on the road now: a camera gone dark or a closed lot leaves the map
  const common = { jurisdiction: f.jurisdiction, active: "true", bbox: bboxParam(view) }
  const crowded: Array<string> = []
  const items: Array<MapItem> = []
  let total = 0
  await Promise.all(
    groups.map(async (g) => {
      const path = `/features?${query({ ...common, group: g })}&limit=1000`
      const first = await get<typeof FeaturePage.Type>(path)
      if (first.total > first.limit * ITEM_PAGES) {
        crowded.push(g)
        return
      }
      const rows = await allPages(get, path, first)
      total += rows.length
      items.push(...rows.map(featureItem(g)))
    })
  )
  const cells =
    crowded.length === 0
      ? { mode: "none" as const, items: [], total: 0 }
      : cellItems(
          await get<typeof MapCells.Type>(
            `/map/cells?layer=features&zoom=${view.zoom.toFixed(2)}&${query({ ...common, group: crowded.join(",") })}`
          ),
          "feature-cell"
        )
  return { items: { mode: items.length > 0 || crowded.length < groups.length ? "items" : "none", items, total }, cells }
}
