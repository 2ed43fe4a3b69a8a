import { Effect, Schema } from "effect"
import { cached, keyedCache } from "../cached.js"
import { BadRequest } from "../http/HttpError.js"
import { Bool, Id, Limit, List, Offset, OneOf, Text } from "../http/QueryParams.js"
import { route } from "../http/Route.js"
import { listFuelPrices, knownFuelTypes } from "../queries/FuelPrices.js"
import { attributionFor, coverageEntries, dataSources, statsSummary } from "../queries/Metadata.js"
import { reference } from "../queries/Reference.js"
import {
  FuelPricePage,
  CoverageList,
  DataSourceList,
  Jurisdiction,
  JurisdictionGroup,
  StatsSummary
} from "../schemas/metadata.js"
import { type ApiWarning, unknownValue } from "../warnings.js"
import { Key } from "../http/access.js"

const SCOPES = ["state", "federal", "regional", "all"] as const
const COUNTRIES = ["US", "CA"] as const

const summary = cached(60_000, statsSummary)
const fuelTypes = cached(3_600_000, knownFuelTypes)
// prices change weekly or monthly: one day per distinct query (SPEC §8)
const prices = keyedCache<
  Effect.Effect.Success<ReturnType<typeof listFuelPrices>>,
  Effect.Effect.Error<ReturnType<typeof listFuelPrices>>,
  Effect.Effect.Context<ReturnType<typeof listFuelPrices>>
>(24 * 3600_000, 500)

const coverageOf = (codes: ReadonlyArray<string> | undefined) =>
  Effect.gen(function* () {
    const ref = yield* reference
    const expanded = codes?.flatMap((c) => ref.expansion.get(c.toUpperCase()) ?? [c.toUpperCase()])
    return { data: yield* coverageEntries(expanded) }
  })

const FuelQuery = Schema.Struct({
  country: Schema.optional(Text("US or CA; another value answers 200 with a warning", 20)),
  fuel_type: Schema.optional(Text("e.g. regular, diesel; an unknown one answers 200 with a warning", 60)),
  jurisdiction: Schema.optional(List("Code or comma list")),
  latest: Schema.optional(Bool("Newest row per jurisdiction, area and fuel type")),
  limit: Schema.optional(Limit()),
  offset: Schema.optional(Offset),
  cursor: Schema.optional(Text("Not supported here: fuel prices page with offset (a cursor is a 400)", 512))
})

/** Metadata endpoints (SPEC §4.6): a key, no particular plan. `startedAt` feeds uptime. */
export const metadataRoutes = (startedAt: number) => [
  route({
    method: "get",
    path: "/jurisdictions",
    operationId: "jurisdictions",
    summary: "Jurisdictions by scope",
    tag: "Metadata",
    access: Key,
    reads: "replica",
    query: Schema.Struct({ scope: Schema.optional(OneOf(SCOPES, "state (default), federal, regional, all")) }),
    responses: { 200: { description: "Jurisdictions", schema: Schema.Array(Jurisdiction), headers: ["rateLimit"] } },
    handler: ({ query }) =>
      Effect.map(reference, (ref) => {
        const scope = query.scope ?? "state"
        return [...ref.jurisdictions.values()]
          .filter((j) => scope === "all" || j.scope === scope)
          .map(({ code, name, official_name, country, scope, group_id, is_active, last_sync_at }) => ({
            code,
            name,
            official_name,
            country,
            scope,
            group_id,
            is_active,
            last_sync_at
          }))
      })
  }),
  route({
    method: "get",
    path: "/jurisdictions/groups",
    operationId: "jurisdictionGroups",
    summary: "Jurisdiction groups and their members",
    tag: "Metadata",
    access: Key,
    reads: "replica",
    responses: { 200: { description: "Groups", schema: Schema.Array(JurisdictionGroup), headers: ["rateLimit"] } },
    handler: () => Effect.map(reference, (ref) => ref.groups)
  }),
  route({
    method: "get",
    path: "/coverage",
    operationId: "coverage",
    summary: "Rows held per jurisdiction, kind and type",
    tag: "Metadata",
    access: Key,
    reads: "replica",
    query: Schema.Struct({
      jurisdiction: Schema.optional(List("Code or comma list; a primary code expands to its group"))
    }),
    responses: { 200: { description: "Coverage entries", schema: CoverageList, headers: ["rateLimit"] } },
    handler: ({ query }) => coverageOf(query.jurisdiction)
  }),
  route({
    method: "get",
    path: "/coverage/:jurisdiction",
    operationId: "coverageOf",
    summary: "Coverage of one jurisdiction (its group for a primary code)",
    tag: "Metadata",
    access: Key,
    reads: "replica",
    params: Schema.Struct({ jurisdiction: Id("Code; a primary code expands to its group", 40) }),
    responses: { 200: { description: "Coverage entries", schema: CoverageList, headers: ["rateLimit"] } },
    handler: ({ params }) => coverageOf([params.jurisdiction])
  }),
  route({
    method: "get",
    path: "/data-sources",
    operationId: "dataSources",
    summary: "Upstream sources, their format and latest poll",
    tag: "Metadata",
    access: Key,
    reads: "replica",
    responses: { 200: { description: "Sources", schema: DataSourceList, headers: ["rateLimit"] } },
    handler: () => Effect.map(dataSources, (data) => ({ data }))
  }),
  route({
    method: "get",
    path: "/stats/summary",
    operationId: "statsSummary",
    summary: "Counts across the store; cached 60 s",
    tag: "Metadata",
    access: Key,
    reads: "replica",
    cacheControl: "private, max-age=60",
    responses: { 200: { description: "Summary", schema: StatsSummary, headers: ["rateLimit"] } },
    // uptime is this process's own age: wall time, not a compared or scheduled instant
    handler: () => Effect.map(summary, (s) => ({ ...s, uptime: Math.round((Date.now() - startedAt) / 1000) }))
  }),
  route({
    method: "get",
    path: "/fuel-prices",
    operationId: "fuelPrices",
    summary: "Fuel prices (SPEC §2.8); cached 24 h",
    tag: "Metadata",
    access: Key,
    reads: "replica",
    cacheControl: "private, max-age=86400",
    query: FuelQuery,
    responses: { 200: { description: "A page of prices", schema: FuelPricePage, headers: ["rateLimit"] } },
    handler: ({ query }) =>
      Effect.gen(function* () {
        if (query.cursor !== undefined) {
          return yield* Effect.fail(
            new BadRequest({
              message:
                "cursor is not supported on /fuel-prices: page with offset (at most 10,000), or narrow by jurisdiction or fuel_type"
            })
          )
        }
        const warnings: Array<ApiWarning> = []
        const ref = yield* reference
        const country = query.country?.toUpperCase()
        if (country !== undefined && !COUNTRIES.includes(country as (typeof COUNTRIES)[number])) {
          warnings.push({
            ...unknownValue("unknown_country", "country", country, COUNTRIES),
            message: `unknown country "${country}"; fuel prices cover US and CA`
          })
        }
        const fuelType = query.fuel_type?.toLowerCase()
        if (fuelType !== undefined) {
          const known = yield* fuelTypes
          if (!known.includes(fuelType)) warnings.push(unknownValue("unknown_fuel_type", "fuel_type", fuelType, known))
        }
        const jurisdictions = query.jurisdiction?.map((c) => c.toUpperCase())
        for (const c of jurisdictions ?? []) {
          if (!ref.jurisdictions.has(c))
            warnings.push(unknownValue("unknown_jurisdiction", "jurisdiction", c, ref.jurisdictions.keys(), ref.names))
        }
        const limit = query.limit ?? 100
        const offset = query.offset ?? 0
        const filters = {
          country,
          fuelType,
          jurisdictions: jurisdictions && jurisdictions.length > 0 ? jurisdictions : undefined,
          latest: query.latest ?? false,
          limit,
          offset
        }
        const result = yield* prices(JSON.stringify(filters), listFuelPrices(filters))
        const attribution = yield* attributionFor([...new Set(result.rows.map((r) => String(r.source)))])
        return {
          data: result.rows,
          total: result.total,
          limit,
          offset,
          has_more: result.hasMore,
          ...(attribution.length > 0 ? { attribution } : {}),
          ...(warnings.length > 0 ? { warnings } : {})
        }
      })
  })
]
