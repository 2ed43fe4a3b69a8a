import type { HttpClient } from "@effect/platform"
import Router from "@koa/router"
import { Effect, Schema } from "effect"
import type { Redis } from "../../shared/db/Redis.js"
import type { AuthContext } from "../middleware/auth.js"
import { ApiError, badRequest } from "../middleware/errors.js"
import { planGate } from "../middleware/planGate.js"
import { featureDetail, featureRows } from "../queries/FeatureDetails.js"
import type { ApiRuntime } from "../runtime.js"

const BatchBody = Schema.Struct({ ids: Schema.NonEmptyArray(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))) })

/** Upstream detail fetches run at most this many at once per batch. */
const DETAIL_CONCURRENCY = 8

/** GET /features/{id}/details and POST /features/details/batch (SPEC §4.2). */
export const featureDetailsRouter = (rt: ApiRuntime) => {
  const router = new Router()

  router.get("/features/:id/details", async (ctx) => {
    const id = ctx.params.id
    if (id.length > 200) throw badRequest("id is too long")
    const [row] = await rt.run(featureRows([id]))
    if (!row) throw new ApiError(404, `no feature with id ${id}`, { docs_url: "/docs/api#features" })
    ctx.body = await rt.run(featureDetail(row))
  })

  router.post("/features/details/batch", async (ctx) => {
    const auth = ctx.state.auth as AuthContext
    const body = Schema.decodeUnknownEither(BatchBody)(ctx.request.body)
    if (body._tag === "Left") throw badRequest('body must be JSON {"ids": ["<feature id>", ...]}')
    const ids = [...new Set(body.right.ids)]
    if (ids.length > auth.plan.max_batch_size) {
      throw planGate(auth, "plan_batch_size", `ids lists ${ids.length} features; your plan allows ${auth.plan.max_batch_size} per request`)
    }
    const rows = new Map((await rt.run(featureRows(ids))).map((r) => [r.id, r] as const))
    const data = await rt.run(
      Effect.forEach(ids, (id): Effect.Effect<Record<string, unknown>, never, Redis | HttpClient.HttpClient> => {
        const row = rows.get(id)
        return row
          ? Effect.map(featureDetail(row), (d) => ({ id, ...d }))
          : Effect.succeed({ id, detail_available: false, cache: "", not_found: true })
      }, { concurrency: DETAIL_CONCURRENCY })
    )
    ctx.body = { count: data.length, data }
  })

  return router
}
