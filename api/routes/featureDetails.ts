import { Effect, Schema } from "effect"
import { NotFound } from "../http/HttpError.js"
import { Id } from "../http/QueryParams.js"
import { RequestAuth } from "../http/RequestAuth.js"
import { route } from "../http/Route.js"
import { planGate } from "../middleware/planGate.js"
import { featureDetail, featureRows } from "../queries/FeatureDetails.js"
import { FeatureDetails, FeatureDetailsBatch } from "../schemas/features.js"
import { Key } from "../http/access.js"

/** Upstream detail fetches run at most this many at once per batch. */
const DETAIL_CONCURRENCY = 8

const FeatureId = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(200, { message: () => "is too long (at most 200 characters)" })
)
const BatchBody = Schema.Struct({
  ids: Schema.NonEmptyArray(FeatureId).annotations({
    message: () => ({ message: 'ids must be a non-empty list of feature ids: {"ids": ["ft_…", …]}', override: true })
  })
})

/** GET /features/{id}/details and POST /features/details/batch (SPEC §4.2). */
export const featureDetailRoutes = [
  route({
    method: "get",
    path: "/features/:id/details",
    operationId: "featureDetails",
    summary: "A feature with its upstream detail document",
    tag: "Features",
    access: Key,
    reads: "replica",
    params: Schema.Struct({ id: Id("Feature id (ft_…)") }),
    responses: {
      200: { description: "The feature and its detail", schema: FeatureDetails, headers: ["rateLimit"] },
      404: { description: "No such feature" }
    },
    handler: ({ params }) =>
      Effect.gen(function* () {
        const [row] = yield* featureRows([params.id])
        if (!row)
          return yield* Effect.fail(
            new NotFound({ message: `no feature with id ${params.id}`, docsUrl: "/docs/api#features" })
          )
        return yield* featureDetail(row)
      })
  }),
  route({
    method: "post",
    path: "/features/details/batch",
    operationId: "featureDetailsBatch",
    summary: "Details of several features; unknown ids answer not_found",
    tag: "Features",
    access: Key,
    reads: "replica",
    body: BatchBody,
    responses: {
      200: { description: "One entry per distinct id, in order", schema: FeatureDetailsBatch, headers: ["rateLimit"] }
    },
    handler: ({ body }) =>
      Effect.gen(function* () {
        const auth = yield* RequestAuth
        const ids = [...new Set(body.ids)]
        if (ids.length > auth.plan.max_batch_size) {
          return yield* Effect.fail(
            planGate(
              auth,
              "plan_batch_size",
              `ids lists ${ids.length} features; your plan allows ${auth.plan.max_batch_size} per request`
            )
          )
        }
        const rows = new Map((yield* featureRows(ids)).map((r) => [r.id, r] as const))
        const data = yield* Effect.forEach(
          ids,
          (id) => {
            const row = rows.get(id)
            return row
              ? Effect.map(featureDetail(row), (d): Record<string, unknown> => ({ id, ...d }))
              : Effect.succeed<Record<string, unknown>>({ id, detail_available: false, cache: "", not_found: true })
          },
          { concurrency: DETAIL_CONCURRENCY }
        )
        return { count: data.length, data }
      })
  })
]
