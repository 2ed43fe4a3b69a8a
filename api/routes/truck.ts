import Router from "@koa/router"
import { makeCorridor } from "../../shared/geo/corridor.js"
import { headerText, JURISDICTION_WARNING_HEADER } from "../coverageWarning.js"
import { featureToGeoJson, requireGeoJson } from "../geojson.js"
import { jurisdictionFilter } from "../jurisdictionFilter.js"
import { listExtras } from "../listExtras.js"
import type { AuthContext } from "../middleware/auth.js"
import { badRequest } from "../middleware/errors.js"
import { requirePlan } from "../middleware/planGate.js"
import { int, list, num, str } from "../params.js"
import { corridorFeatures } from "../queries/CorridorQuery.js"
import { cachedReference } from "../queries/Reference.js"
import type { ApiRuntime } from "../runtime.js"
import type { ApiWarning } from "../warnings.js"

type Query = Record<string, string | string[] | undefined>

export const CORRIDOR_BUFFER_MAX_KM = 50
export const CORRIDOR_LIMIT_MAX = 2000

const required = (q: Query, name: string, min: number, max: number) => {
  const v = num(q, name, min, max)
  if (v === undefined) throw badRequest(`${name} is required`)
  return v
}

/** Truck corridor (SPEC §4.3), Pro and above. */
export const truckRouter = (rt: ApiRuntime) => {
  const router = new Router()
  const reference = cachedReference()
  router.use("/truck", requirePlan((p) => p.allow_truck_data, "plan_truck", "truck corridor and routing are available on Pro and above"))

  const corridorQuery = async (ctx: Router.RouterContext) => {
    const auth = ctx.state.auth as AuthContext
    const q = ctx.query as Query
    if (str(q, "weight") !== undefined) {
      throw badRequest("weight is not supported: the corridor does no load filtering; drop weight to get the full inventory")
    }
    const from = { lat: required(q, "from_lat", -90, 90), lng: required(q, "from_lng", -180, 180) }
    const to = { lat: required(q, "to_lat", -90, 90), lng: required(q, "to_lng", -180, 180) }
    const bufferKm = num(q, "buffer_km", 0.001, CORRIDOR_BUFFER_MAX_KM) ?? 5
    const heightM = num(q, "height", 0.1, 20)
    const limit = Math.min(int(q, "limit", 1, 1_000_000) ?? 500, CORRIDOR_LIMIT_MAX)
    if ((list(q, "jurisdiction")?.length ?? 0) > 1) throw badRequest("jurisdiction takes one code on the corridor")
    const warnings: Array<ApiWarning> = []
    const ref = await rt.run(reference)
    const jurisdictions = jurisdictionFilter(q, ref, auth, warnings)
    const corridor = makeCorridor(from, to, bufferKm)
    const result = await rt.run(corridorFeatures({ corridor, jurisdictions, heightM, limit }))
    const attribution = await listExtras(rt, ctx, { kind: "feature", q, ref, types: undefined, rows: result.data, total: result.total, warnings })
    return {
      corridor: { from: [from.lat, from.lng], to: [to.lat, to.lng], buffer_km: bufferKm, distance_km: Math.round(corridor.lengthKm * 1000) / 1000 },
      data: result.data,
      total: result.total,
      limit,
      attribution,
      warnings
    }
  }

  router.get("/truck/corridor", async (ctx) => {
    const { attribution, warnings, ...body } = await corridorQuery(ctx)
    ctx.body = { ...body, ...(attribution.length > 0 ? { attribution } : {}), ...(warnings.length > 0 ? { warnings } : {}) }
  })

  router.get("/truck/corridor/geojson", async (ctx) => {
    requireGeoJson(ctx)
    const { attribution, warnings, corridor, data, total, limit } = await corridorQuery(ctx)
    if (warnings.length > 0) ctx.set(JURISDICTION_WARNING_HEADER, headerText(warnings.map((w) => w.message).join("; ")))
    ctx.body = {
      type: "FeatureCollection",
      features: data.map(featureToGeoJson),
      corridor, total, limit,
      ...(attribution.length > 0 ? { attribution } : {})
    }
    ctx.type = "application/geo+json"
  })
  return router
}
