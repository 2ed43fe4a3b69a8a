import { Effect, Schema } from "effect"
import { dependencyTags } from "../../shared/cache/invalidation.js"
import { groupById, KNOWN_FEATURE_TYPES } from "../../shared/domain/FeatureGroups.js"
import { dependsOn } from "../cache/dependsOn.js"
import { BboxParam, Bool, List, Num, OneOf } from "../http/QueryParams.js"
import { RequestAuth } from "../http/RequestAuth.js"
import { route } from "../http/Route.js"
import { JurisdictionParam, jurisdictionFilter } from "../jurisdictionFilter.js"
import { type CellCount, eventCells, featureCells, resolutionForZoom } from "../queries/MapCells.js"
import type { FeatureFilters } from "../queries/FeaturesQuery.js"
import { reference } from "../queries/Reference.js"
import { MapCells } from "../schemas/map.js"
import { type ApiWarning, dataDelayWarning, unknownValue } from "../warnings.js"
import { readEventFilters } from "./events.js"
import { planFeatureView } from "./features.js"
import { Key } from "../http/access.js"

const MapCellsQuery = Schema.Struct({
  layer: OneOf(["events", "features"] as const, "What to count"),
  bbox: BboxParam,
  zoom: Num(
    0,
    24,
    "Web-map zoom of the view: below 5 counts per H3 resolution-3 cell, below 8 per resolution 5, else per resolution 7"
  ),
  jurisdiction: JurisdictionParam,
  type: Schema.optional(List("Events: event types. Features: feature types (with group, narrows it)")),
  group: Schema.optional(List("Features: feature group ids; their types are counted")),
  severity: Schema.optional(List("Events: minor, moderate, major, critical")),
  status: Schema.optional(List("Events: default active")),
  dedupe: Schema.optional(Bool("Events: one report per real-world event, as on /events")),
  active: Schema.optional(Bool("Features: true active only, false inactive only (not on Free)"))
})
type MapCellsQuery = typeof MapCellsQuery.Type

/** group and type lists → feature types; unknown names answer with warnings, as /features does. */
const featureTypesOf = (q: MapCellsQuery, warnings: Array<ApiWarning>) => {
  const types = new Set<string>()
  for (const id of q.group ?? []) {
    const g = groupById.get(id.toLowerCase())
    if (g) for (const t of g.feature_types) types.add(t)
    else
      warnings.push({
        ...unknownValue("unknown_type", "feature group", id, groupById.keys()),
        message: `unknown feature group "${id}"; see /api/v1/features/groups`
      })
  }
  const asked = (q.type ?? []).map((t) => t.toLowerCase())
  for (const t of asked)
    if (!KNOWN_FEATURE_TYPES.includes(t))
      warnings.push(unknownValue("unknown_type", "feature type", t, KNOWN_FEATURE_TYPES))
  if (asked.length === 0) return [...types]
  return q.group ? asked.filter((t) => types.has(t)) : asked
}

/**
 * Server-side aggregation for the portal's map (and any client drawing density): what a view
 * holds, counted per H3 cell at a resolution fit for its zoom. One small answer stands for
 * 100,000 points; a client asks for the items themselves (/events, /features with bbox) once
 * the view is close enough to hold few.
 */
export const mapRoutes = [
  route({
    method: "get",
    path: "/map/cells",
    operationId: "mapCells",
    summary: "Events or features in a view, counted per H3 cell",
    tag: "Map",
    access: Key,
    reads: "replica",
    shared: true,
    query: MapCellsQuery,
    responses: {
      200: { description: "Counts per cell", schema: MapCells, headers: ["rateLimit", "jurisdictionWarning"] }
    },
    handler: ({ query: q }) =>
      Effect.gen(function* () {
        const auth = yield* RequestAuth
        const warnings: Array<ApiWarning> = []
        const res = resolutionForZoom(q.zoom)
        let answer: { cells: ReadonlyArray<CellCount>; truncated: boolean }
        if (q.layer === "events") {
          const { filters } = yield* readEventFilters(
            {
              jurisdiction: q.jurisdiction,
              type: q.type,
              severity: q.severity,
              status: q.status,
              dedupe: q.dedupe,
              bbox: q.bbox
            },
            warnings
          )
          yield* dependsOn(dependencyTags("event", filters.jurisdictions))
          answer = yield* eventCells(filters, res)
        } else {
          const view = yield* planFeatureView(auth, q.active)
          const types = featureTypesOf(q, warnings)
          const filters: FeatureFilters = {
            types,
            jurisdictions: yield* jurisdictionFilter(q.jurisdiction, yield* reference, warnings),
            ...view,
            bbox: q.bbox
          }
          yield* dependsOn(dependencyTags("feature", filters.jurisdictions))
          answer = types.length === 0 ? { cells: [], truncated: false } : yield* featureCells(filters, res)
        }
        if (auth.plan.data_delay_sec > 0) warnings.push(dataDelayWarning(auth.plan.data_delay_sec))
        const total = answer.cells.reduce((s, c) => s + c.count, 0)
        return {
          layer: q.layer,
          resolution: res,
          total,
          truncated: answer.truncated,
          data: answer.cells,
          ...(warnings.length > 0 ? { warnings } : {})
        }
      })
  })
]
