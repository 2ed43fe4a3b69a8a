import Router from "@koa/router"
import { FEATURE_GROUPS, groupById, KNOWN_FEATURE_TYPES } from "../../shared/domain/FeatureGroups.js"
import { cached } from "../cached.js"
import { featureToGeoJson, requireGeoJson, sendFeatureCollection } from "../geojson.js"
import { cursorSecret } from "../cursor.js"
import { jurisdictionFilter } from "../jurisdictionFilter.js"
import type { AuthContext } from "../middleware/auth.js"
import { badRequest } from "../middleware/errors.js"
import { planGate } from "../middleware/planGate.js"
import { pagedEnvelope, readPage } from "../paging.js"
import { bbox, bool, circle, instant, str } from "../params.js"
import { type FeatureFilters, featureTypeCounts, listFeatures } from "../queries/FeaturesQuery.js"
import { cachedReference, type Reference } from "../queries/Reference.js"
import { listExtras } from "../listExtras.js"
import type { ApiRuntime } from "../runtime.js"
import { type ApiWarning, unknownValue } from "../warnings.js"

type Query = Record<string, string | string[] | undefined>

/** With a group, a radius above this is refused (SPEC §4.2); a single type has no cap. */
export const GROUP_RADIUS_CAP_KM = 200

/** type or group → the feature types to select; unknown values answer with warnings (SPEC §2.4). */
const typesOf = (q: Query, present: ReadonlyArray<string>, warnings: Array<ApiWarning>): ReadonlyArray<string> => {
  const type = str(q, "type")?.toLowerCase()
  const groupId = str(q, "group")?.toLowerCase()
  if (!type && !groupId) throw badRequest("type or group is required (see /api/v1/features/types and /api/v1/features/groups)")
  const known = new Set([...KNOWN_FEATURE_TYPES, ...present])
  if (type && !known.has(type)) warnings.push(unknownValue("unknown_type", "feature type", type, known))
  if (!groupId) return [type!]
  const group = groupById.get(groupId)
  if (!group) {
    warnings.push({ ...unknownValue("unknown_type", "feature group", groupId, groupById.keys()), message: `unknown feature group "${groupId.toUpperCase()}"; see /api/v1/features/groups` })
    return []
  }
  // both: the type, if the group holds it
  return type ? group.feature_types.filter((t) => t === type) : group.feature_types
}

export const featuresRouter = (rt: ApiRuntime) => {
  const router = new Router()
  const reference = cachedReference()
  const typeCounts = cached(120_000, featureTypeCounts)

  router.get("/features/types", async (ctx) => {
    ctx.set("Cache-Control", "private, max-age=120")
    ctx.body = await rt.run(typeCounts)
  })

  router.get("/features/groups", async (ctx) => {
    ctx.set("Cache-Control", "private, max-age=3600")
    ctx.body = FEATURE_GROUPS
  })

  /** The filters of a /features request, shared by the JSON and GeoJSON forms. */
  const readFilters = async (q: Query, auth: AuthContext, warnings: Array<ApiWarning>): Promise<{ filters: FeatureFilters; ref: Reference }> => {
    const [ref, counts] = await Promise.all([rt.run(reference), rt.run(typeCounts)])
    const types = typesOf(q, counts.map((c) => c.type), warnings)
    const c = circle(q, 20_000)
    if (c && str(q, "group") && c.radiusKm > GROUP_RADIUS_CAP_KM) {
      throw badRequest(`radius_km above ${GROUP_RADIUS_CAP_KM} is not allowed with group; search one type for a wider radius`)
    }
    const active = bool(q, "active")
    if (active === false && !auth.plan.allow_inactive_features) {
      throw planGate(auth, "plan_inactive_features", "your plan lists active features only")
    }
    const filters: FeatureFilters = {
      types,
      jurisdictions: jurisdictionFilter(q, ref, auth, warnings),
      // a plan without inactive features sees active ones only, asked or not
      active: auth.plan.allow_inactive_features ? active : true,
      circle: c,
      bbox: bbox(q),
      startsAfter: instant(q, "starts_after"),
      startsBefore: instant(q, "starts_before"),
      endsAfter: instant(q, "ends_after"),
      endsBefore: instant(q, "ends_before"),
      delaySec: auth.plan.data_delay_sec > 0 ? auth.plan.data_delay_sec : undefined
    }
    return { filters, ref }
  }

  /** One /features query, the same for both forms: the paged envelope and its warnings. */
  const query = async (ctx: Router.RouterContext) => {
    const auth = ctx.state.auth as AuthContext
    const q = ctx.query as Query
    const warnings: Array<ApiWarning> = []
    const { filters, ref } = await readFilters(q, auth, warnings)
    const secret = await rt.run(cursorSecret)
    const page = readPage(q, auth, secret, filters)
    const result = await rt.run(listFeatures(filters, page))
    const attribution = await listExtras(rt, ctx, { kind: "feature", q, ref, types: str(q, "type") ? filters.types : undefined, rows: result.rows, total: result.total, warnings })
    return { envelope: pagedEnvelope(secret, page, result, [], attribution), warnings }
  }

  router.get("/features", async (ctx) => {
    const { envelope, warnings } = await query(ctx)
    ctx.body = { ...envelope, ...(warnings.length > 0 ? { warnings } : {}) }
  })

  router.get("/features/geojson", async (ctx) => {
    requireGeoJson(ctx)
    const { envelope, warnings } = await query(ctx)
    sendFeatureCollection(ctx, envelope, warnings, featureToGeoJson)
  })

  return router
}
