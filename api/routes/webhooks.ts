import Router from "@koa/router"
import { Effect, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { testItem } from "../../shared/webhooks/payloads.js"
import { sendSigned } from "../../shared/webhooks/send.js"
import { decryptSecret } from "../../shared/webhooks/secrets.js"
import { nowMillis } from "../../shared/time/Now.js"
import {
  createSubscription, DELIVERY_STATUSES, deleteSubscription, getSubscription, listDeliveries, listSubscriptions, replayDelivery,
  rotateSecret, updateSubscription, WebhookNotFound
} from "../../shared/webhooks/subscriptions.js"
import { SqlClient } from "@effect/sql"
import type { AuthContext } from "../middleware/auth.js"
import { ApiError, badRequest } from "../middleware/errors.js"
import { planGate, requirePlan } from "../middleware/planGate.js"
import { OFFSET_CAP } from "../paging.js"
import { int, str } from "../params.js"
import type { ApiRuntime, ApiServices } from "../runtime.js"

/** Tagged failures of the subscription service → the API's answers. */
const answer = async <A>(rt: ApiRuntime, auth: AuthContext, effect: Effect.Effect<A, { _tag: string; message: string } | unknown, ApiServices>): Promise<A> => {
  const result = await rt.run(Effect.either(effect))
  if (result._tag === "Right") return result.right
  const e = result.left as { _tag?: string; message?: string }
  switch (e._tag) {
    case "WebhookInputError": throw badRequest(e.message!)
    case "WebhookNotFound": throw new ApiError(404, e.message!, { docs_url: "/docs/webhooks" })
    case "WebhookLimitReached": throw planGate(auth, "plan_webhooks", e.message!)
    default: throw result.left
  }
}

/** What the test delivery needs: target and decrypted secret (never sent to the client). */
const targetOf = (customerId: number, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const [row] = yield* sql<{ url: string; secret_enc: Buffer }>`SELECT url, secret_enc FROM webhook_subscriptions WHERE customer_id = ${customerId} AND id = ${id}`
    if (!row) return yield* Effect.fail(new WebhookNotFound({ message: `no webhook subscription ${id}` }))
    return {
      url: row.url, secret: decryptSecret(Buffer.from(row.secret_enc), Redacted.value(config.webhookSecretKey)),
      timeoutMs: config.webhookTimeoutMs, allowPrivate: config.webhookAllowPrivateTargets
    }
  })

/** Subscription management (Pro and above); docs/api/webhooks.md describes it. */
export const webhooksRouter = (rt: ApiRuntime) => {
  const router = new Router()
  router.use("/webhooks", requirePlan((p) => p.allow_webhooks, "plan_webhooks", "webhooks are available on Pro and above"))
  const auth = (ctx: Router.RouterContext) => ctx.state.auth as AuthContext
  const id = (ctx: Router.RouterContext) => {
    if (ctx.params.id.length > 100) throw badRequest("id is too long")
    return ctx.params.id
  }

  router.post("/webhooks", async (ctx) => {
    ctx.status = 201
    ctx.body = await answer(rt, auth(ctx), createSubscription(auth(ctx).customerId, ctx.request.body))
  })
  router.get("/webhooks", async (ctx) => {
    ctx.body = { data: await answer(rt, auth(ctx), listSubscriptions(auth(ctx).customerId)) }
  })
  router.get("/webhooks/:id", async (ctx) => {
    ctx.body = await answer(rt, auth(ctx), getSubscription(auth(ctx).customerId, id(ctx)))
  })
  router.patch("/webhooks/:id", async (ctx) => {
    ctx.body = await answer(rt, auth(ctx), updateSubscription(auth(ctx).customerId, id(ctx), ctx.request.body))
  })
  router.delete("/webhooks/:id", async (ctx) => {
    await answer(rt, auth(ctx), deleteSubscription(auth(ctx).customerId, id(ctx)))
    ctx.status = 204
  })
  router.post("/webhooks/:id/rotate-secret", async (ctx) => {
    ctx.body = await answer(rt, auth(ctx), rotateSecret(auth(ctx).customerId, id(ctx)))
  })

  // the portal's Test button: one signed `test` POST now, answered with its outcome, never recorded
  router.post("/webhooks/:id/test", async (ctx) => {
    const a = auth(ctx)
    const target = await answer(rt, a, targetOf(a.customerId, id(ctx)))
    const now = await rt.run(nowMillis)
    const deliveryId = `whd_test_${randomBytes(9).toString("base64url")}`
    const r = await sendSigned(target, deliveryId, Math.floor(now / 1000), JSON.stringify(testItem(new Date(now).toISOString())))
    ctx.body = { delivered: r.error === null, delivery_id: deliveryId, status_code: r.status, latency_ms: r.latencyMs, error: r.error }
  })

  router.get("/webhooks/:id/deliveries", async (ctx) => {
    const status = str(ctx.query, "status")?.toLowerCase()
    if (status !== undefined && !DELIVERY_STATUSES.includes(status as never)) throw badRequest(`status must be one of ${DELIVERY_STATUSES.join(", ")}`)
    const limit = Math.min(int(ctx.query, "limit", 1, 1_000_000) ?? 100, 1000)
    const offset = int(ctx.query, "offset", 0, OFFSET_CAP) ?? 0
    ctx.body = await answer(rt, auth(ctx), listDeliveries(auth(ctx).customerId, id(ctx), status, limit, offset))
  })
  router.post("/webhooks/:id/deliveries/:delivery/replay", async (ctx) => {
    if (ctx.params.delivery.length > 100) throw badRequest("delivery id is too long")
    ctx.status = 202
    ctx.body = await answer(rt, auth(ctx), replayDelivery(auth(ctx).customerId, id(ctx), ctx.params.delivery))
  })
  return router
}
