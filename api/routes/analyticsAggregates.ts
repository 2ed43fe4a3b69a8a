import { Effect, Schema } from "effect"
import { SEVERITIES } from "../../shared/domain/Event.js"
import { arrayWarnings, resolveWindow, windowFields, type WindowQuery } from "../analyticsWindow.js"
import { BadRequest } from "../http/HttpError.js"
import { Bool, figure, Int, List, Num, OneOf } from "../http/QueryParams.js"
import { type ResponseHeaders, route } from "../http/Route.js"
import type { FactFilters } from "../queries/AnalyticsFacts.js"
import { clearance } from "../queries/AnalyticsClearance.js"
import { corridors } from "../queries/AnalyticsCorridors.js"
import {
  DEFAULT_RESOLUTION,
  hotspots,
  MAX_RESOLUTION,
  MIN_RESOLUTION,
  resolutionForKm
} from "../queries/AnalyticsHotspots.js"
import { BUCKETS, GROUPINGS, MAX_PERIODS, periodStarts, trends } from "../queries/AnalyticsTrends.js"
import { weatherCorrelation } from "../queries/AnalyticsCorrelation.js"
import { ClearanceRow, CorrelationRow, CorridorRow, HotspotRow, TrendRow } from "../schemas/analytics.js"
import { type ApiWarning, vocabularyFilter } from "../warnings.js"
import { Key } from "../http/access.js"

export const analyticsGate = {
  allowed: (p: { allow_analytics: boolean }) => p.allow_analytics,
  code: "plan_analytics",
  message: "analytics are available on Pro and above"
} as const
export const analyticsCommon = { tag: "Analytics", access: Key, reads: "replica", gate: analyticsGate } as const

const includeStale = Schema.optional(
  Bool(
    "Count stale_sweep archives (we stopped hearing of the event) as clearances too; default false: only observed archives"
  )
)
const listLimit = (def: number, max: number) =>
  Schema.optional(Int(1, max, `Rows returned, busiest first; default ${figure(def)}, at most ${figure(max)}`))
/** An aggregate's answer: the window resolved (its warnings collected), the rows, the warnings in headers. */
const aggregate = <A, E, R>(
  query: WindowQuery,
  headers: ResponseHeaders,
  rows: (f: FactFilters, warnings: Array<ApiWarning>) => Effect.Effect<A, E, R>
) =>
  Effect.gen(function* () {
    const warnings: Array<ApiWarning> = []
    const answer = yield* rows(yield* resolveWindow(query, warnings), warnings)
    arrayWarnings(headers, warnings)
    return answer
  })

const array = (schema: Schema.Schema.Any, description: string) => ({
  200: {
    description,
    schema: Schema.Array(schema as Schema.Schema<unknown>),
    headers: ["rateLimit", "warnings"] as const
  }
})

/** Event aggregates over a window of first reports (Pro and above); docs/DECISIONS.md says how each is computed. */
export const analyticsAggregateRoutes = [
  route({
    ...analyticsCommon,
    method: "get",
    path: "/analytics/clearance",
    operationId: "analyticsClearance",
    summary:
      "Pro and above; minutes from start to archive per jurisdiction × event type (p50/p95 continuous percentiles, average)",
    query: Schema.Struct({ ...windowFields, include_stale: includeStale }),
    responses: array(ClearanceRow, "Clearance figures, by jurisdiction then event type"),
    handler: ({ query, headers }) => aggregate(query, headers, (f) => clearance(f, query.include_stale ?? false))
  }),
  route({
    ...analyticsCommon,
    method: "get",
    path: "/analytics/corridors",
    operationId: "analyticsCorridors",
    summary: "Pro and above; events per road × jurisdiction, busiest first",
    query: Schema.Struct({ ...windowFields, include_stale: includeStale, limit: listLimit(50, 1000) }),
    responses: array(CorridorRow, "Roads by total events"),
    handler: ({ query, headers }) =>
      aggregate(query, headers, (f) => corridors(f, query.include_stale ?? false, query.limit ?? 50))
  }),
  route({
    ...analyticsCommon,
    method: "get",
    path: "/analytics/trends",
    operationId: "analyticsTrends",
    summary:
      "Pro and above; events first reported per hour, day (default) or ISO week in UTC, split by type (default), severity or jurisdiction; empty periods are zeros",
    query: Schema.Struct({
      ...windowFields,
      bucket: Schema.optional(OneOf(BUCKETS, "Period length; default day. Weeks start Monday 00:00 UTC")),
      group_by: Schema.optional(
        OneOf(GROUPINGS, "Split of each period: by_type (default), by_severity or by_jurisdiction")
      )
    }),
    responses: array(TrendRow, "One row per period, oldest first"),
    handler: ({ query, headers }) =>
      aggregate(query, headers, (f) =>
        Effect.gen(function* () {
          const bucket = query.bucket ?? "day"
          const starts = periodStarts(f.since, f.until, bucket)
          if (starts.length > MAX_PERIODS) {
            return yield* Effect.fail(
              new BadRequest({
                message: `the window holds ${figure(starts.length)} ${bucket} periods; at most ${figure(MAX_PERIODS)} are answered: use a larger bucket or a shorter window`
              })
            )
          }
          return yield* trends(f, bucket, query.group_by ?? "type", starts)
        })
      )
  }),
  route({
    ...analyticsCommon,
    method: "get",
    path: "/analytics/hotspots",
    operationId: "analyticsHotspots",
    summary: "Pro and above; clusters of events on an H3 grid, densest first",
    query: Schema.Struct({
      ...windowFields,
      resolution: Schema.optional(
        Int(
          MIN_RESOLUTION,
          MAX_RESOLUTION,
          `H3 resolution of the grid; default ${DEFAULT_RESOLUTION} (cells about 9 km across the edge); exclusive with cell_km`
        )
      ),
      cell_km: Schema.optional(
        Num(
          0.1,
          1500,
          "Approximate cell edge in km; picks the H3 resolution nearest it; exclusive with resolution",
          true
        )
      ),
      min_count: Schema.optional(Int(1, 1_000_000, "Events a cell needs to be a cluster; default 2")),
      limit: listLimit(50, 1000)
    }),
    responses: array(HotspotRow, "Clusters by event count"),
    handler: ({ query, headers }) =>
      query.resolution !== undefined && query.cell_km !== undefined
        ? Effect.fail(new BadRequest({ message: "resolution and cell_km both set the grid; send one" }))
        : aggregate(query, headers, (f) => {
            const resolution =
              query.resolution ?? (query.cell_km !== undefined ? resolutionForKm(query.cell_km) : DEFAULT_RESOLUTION)
            return hotspots(f, resolution, query.min_count ?? 2, query.limit ?? 50)
          })
  }),
  route({
    ...analyticsCommon,
    method: "get",
    path: "/analytics/weather-correlation",
    operationId: "analyticsWeatherCorrelation",
    summary:
      "Pro and above; events by the precipitation × road surface of their weather snapshot, with severity counts and shares and average clearance",
    query: Schema.Struct({
      ...windowFields,
      severity: Schema.optional(List(`Severity: ${SEVERITIES.join(", ")}`)),
      include_stale: includeStale
    }),
    responses: array(CorrelationRow, "Weather conditions by events"),
    handler: ({ query, headers }) =>
      aggregate(query, headers, (window, warnings) => {
        const severities = vocabularyFilter(query.severity, "severity", SEVERITIES, "unknown_severity", warnings)
        return weatherCorrelation({ ...window, severities }, query.include_stale ?? false, SEVERITIES)
      })
  })
]
