import { Effect, Schema } from "effect"
import { FEATURE_GROUPS, groupById, KNOWN_FEATURE_TYPES } from "../../shared/domain/FeatureGroups.js"
import { dependencyTags } from "../../shared/cache/invalidation.js"
import { dependsOn } from "../cache/dependsOn.js"
import { cached } from "../cached.js"
import { featureCollection, featureToGeoJson, requireGeoJson } from "../geojson.js"
import { BadRequest } from "../http/HttpError.js"
import { BboxParam, Bool, circleFields, circleOf, Instant, Text } from "../http/QueryParams.js"
import { RequestAuth } from "../http/RequestAuth.js"
import { type ResponseHeaders, route } from "../http/Route.js"
import { JurisdictionParam, jurisdictionFilter } from "../jurisdictionFilter.js"
import { listExtras } from "../listExtras.js"
import type { AuthContext } from "../http/AuthContext.js"
import { planGate } from "../middleware/planGate.js"
import { pagedEnvelope, pageFields, pageOf } from "../paging.js"
import { type FeatureFilters, featureTypeCounts, listFeatures, presentFeatureTypes } from "../queries/FeaturesQuery.js"
import { reference } from "../queries/Reference.js"
import { FeatureCollection, FeatureGroup, FeaturePage, FeatureTypeCount } from "../schemas/features.js"
import { type ApiWarning, dataDelayWarning, unknownValue } from "../warnings.js"
import { Key } from "../http/access.js"

/** With a group, a radius above this is refused (SPEC §4.2); a single type has no cap. */
export const GROUP_RADIUS_CAP_KM = 200

const FeatureQuery = Schema.Struct({
  type: Schema.optional(Text("One feature type (see /features/types); type or group is required", 100)),
  group: Schema.optional(
    Text("Feature group id (see /features/groups); radius_km above 200 is a 400 with a group", 100)
  ),
  jurisdiction: JurisdictionParam,
  active: Schema.optional(Bool("true: active only; false: inactive only (not on Free)")),
  ...circleFields(20_000),
  bbox: Schema.optional(BboxParam),
  starts_after: Schema.optional(Instant("Start (estimated, else scheduled) at or after")),
  starts_before: Schema.optional(Instant("Start at or before")),
  ends_after: Schema.optional(Instant("End at or after; open-ended features match")),
  ends_before: Schema.optional(Instant("End at or before")),
  ...pageFields()
})
type FeatureQuery = typeof FeatureQuery.Type

/**
 * type or group → the feature types to select; unknown values, and a type outside the group, answer with warnings
 * (SPEC §2.4).
 */
const typesOf = (q: FeatureQuery, present: ReadonlyArray<string>, warnings: Array<ApiWarning>) => {
  const type = q.type?.toLowerCase()
  const groupId = q.group?.toLowerCase()
  if (!type && !groupId) {
    return Effect.fail(
      new BadRequest({ message: "type or group is required (see /api/v1/features/types and /api/v1/features/groups)" })
    )
  }
  const known = new Set([...KNOWN_FEATURE_TYPES, ...present])
  if (type && !known.has(type)) warnings.push(unknownValue("unknown_type", "feature type", type, known))
  if (!groupId) return Effect.succeed([type!])
  const group = groupById.get(groupId)
  if (!group) {
    warnings.push({
      ...unknownValue("unknown_type", "feature group", groupId, groupById.keys()),
      message: `unknown feature group "${groupId.toUpperCase()}"; see /api/v1/features/groups`
    })
    return Effect.succeed([])
  }
  if (type && !group.feature_types.includes(type)) {
    warnings.push({
      code: "type_not_in_group",
      value: type.toUpperCase(),
      message: `feature type "${type}" is not in group "${group.id}" (${group.feature_types.join(", ")}); send one of them, or type alone`,
      ...(group.feature_types.length > 0 ? { did_you_mean: group.feature_types.slice(0, 3) } : {})
    })
  }
  // both: the type, if the group holds it
  return Effect.succeed(type ? group.feature_types.filter((t) => t === type) : group.feature_types)
}

const typeCounts = cached(120_000, featureTypeCounts)
/** The lists' view of which types exist: kept as long as the counts, without their table scan. */
const presentTypes = cached(120_000, presentFeatureTypes)

/**
 * What a plan lets a caller see of features (SPEC §7): inactive ones only where allowed (a plan
 * without them sees active ones, asked or not; asking for inactive ones is a plan gate), and the
 * plan's delay. Shared with the map's cells.
 */
export const planFeatureView = (auth: AuthContext, active: boolean | undefined) =>
  active === false && !auth.plan.allow_inactive_features
    ? Effect.fail(planGate(auth, "plan_inactive_features", "your plan lists active features only"))
    : Effect.succeed({
        active: auth.plan.allow_inactive_features ? active : true,
        delaySec: auth.plan.data_delay_sec > 0 ? auth.plan.data_delay_sec : undefined
      })

/** The filters of a /features request, shared by the JSON and GeoJSON forms. */
const readFilters = (q: FeatureQuery, warnings: Array<ApiWarning>) =>
  Effect.gen(function* () {
    const auth = yield* RequestAuth
    // both are kept per process: read one after the other, no fibers forked for them
    const ref = yield* reference
    const types = yield* typesOf(q, yield* presentTypes, warnings)
    const circle = yield* circleOf(q)
    if (circle && q.group && circle.radiusKm > GROUP_RADIUS_CAP_KM) {
      return yield* Effect.fail(
        new BadRequest({
          message: `radius_km above ${GROUP_RADIUS_CAP_KM} is not allowed with group; search one type for a wider radius`
        })
      )
    }
    const view = yield* planFeatureView(auth, q.active)
    const filters: FeatureFilters = {
      types,
      jurisdictions: yield* jurisdictionFilter(q.jurisdiction, ref, warnings),
      ...view,
      circle,
      bbox: q.bbox,
      startsAfter: q.starts_after,
      startsBefore: q.starts_before,
      endsAfter: q.ends_after,
      endsBefore: q.ends_before
    }
    return { filters, ref }
  })

/** One /features query, the same for both forms: the paged envelope and its warnings. */
const featureQuery = (q: FeatureQuery, headers: ResponseHeaders) =>
  Effect.gen(function* () {
    const auth = yield* RequestAuth
    const warnings: Array<ApiWarning> = []
    const { filters, ref } = yield* readFilters(q, warnings)
    yield* dependsOn(dependencyTags("feature", filters.jurisdictions))
    const page = yield* pageOf(q, filters)
    const result = yield* listFeatures(filters, page)
    const attribution = yield* listExtras(headers, {
      kind: "feature",
      codes: q.jurisdiction,
      ref,
      types: q.type ? filters.types : undefined,
      rows: result.rows,
      total: result.total,
      warnings
    })
    if (auth.plan.data_delay_sec > 0) warnings.push(dataDelayWarning(auth.plan.data_delay_sec))
    return { envelope: pagedEnvelope(page, result, [], attribution), warnings }
  })

export const featureRoutes = [
  route({
    method: "get",
    path: "/features/types",
    operationId: "featureTypes",
    summary: "Feature types with counts; cached 2 minutes",
    tag: "Features",
    access: Key,
    reads: "replica",
    cacheControl: "private, max-age=120",
    responses: {
      200: { description: "Every feature type held", schema: Schema.Array(FeatureTypeCount), headers: ["rateLimit"] }
    },
    handler: () => typeCounts
  }),
  route({
    method: "get",
    path: "/features/groups",
    operationId: "featureGroups",
    summary: "Feature groups; cached 1 hour",
    tag: "Features",
    access: Key,
    reads: "replica",
    cacheControl: "private, max-age=3600",
    responses: {
      200: { description: "Every feature group", schema: Schema.Array(FeatureGroup), headers: ["rateLimit"] }
    },
    handler: () => Effect.succeed(FEATURE_GROUPS)
  }),
  route({
    method: "get",
    path: "/features",
    operationId: "listFeatures",
    summary: "Paged road features of one type or group",
    tag: "Features",
    access: Key,
    reads: "replica",
    shared: true,
    query: FeatureQuery,
    responses: {
      200: { description: "A page of features", schema: FeaturePage, headers: ["rateLimit", "jurisdictionWarning"] }
    },
    handler: ({ query, headers }) =>
      Effect.map(featureQuery(query, headers), ({ envelope, warnings }) => ({
        ...envelope,
        ...(warnings.length > 0 ? { warnings } : {})
      }))
  }),
  route({
    method: "get",
    path: "/features/geojson",
    operationId: "listFeaturesGeoJson",
    summary: "Features as GeoJSON (Starter and above)",
    tag: "Features",
    access: Key,
    reads: "replica",
    shared: true,
    query: FeatureQuery,
    responses: {
      200: {
        description: "RFC 7946 FeatureCollection",
        schema: FeatureCollection,
        contentType: "application/geo+json",
        headers: ["rateLimit", "jurisdictionWarning"]
      }
    },
    handler: ({ query, headers }) =>
      Effect.gen(function* () {
        yield* requireGeoJson
        const { envelope, warnings } = yield* featureQuery(query, headers)
        return featureCollection(headers, envelope, warnings, featureToGeoJson)
      })
  })
]
