import { SqlClient } from "@effect/sql"
import { Effect, Redacted, Schema } from "effect"
import { AppConfig } from "../../shared/config/AppConfig.js"
import { decryptSecret } from "../../shared/webhooks/secrets.js"
import { lastTestDelivery, sendTestDelivery } from "../../shared/webhooks/testDelivery.js"
import {
  createSubscription,
  DELIVERY_STATUSES,
  deleteSubscription,
  getSubscription,
  listDeliveries,
  listSubscriptions,
  replayDelivery,
  rotateSecret,
  SubscriptionInput,
  SubscriptionPatch,
  updateSubscription,
  WebhookNotFound
} from "../../shared/webhooks/subscriptions.js"
import { Id, Limit, Offset, OneOf } from "../http/QueryParams.js"
import { RequestAuth } from "../http/RequestAuth.js"
import { Reply, route } from "../http/Route.js"
import type { AuthContext } from "../http/AuthContext.js"
import { planGate } from "../middleware/planGate.js"
import { BrowserRequest } from "../portal/BrowserRequest.js"
import { PortalSession } from "../portal/PortalSession.js"
import {
  WebhookDeliveryPage,
  WebhookReplay,
  WebhookSecret,
  WebhookSubscription,
  WebhookSubscriptionCreated,
  WebhookSubscriptionList,
  WebhookLastTest,
  WebhookTestResult
} from "../schemas/webhooks.js"
import { type Access, Key, Session } from "../http/access.js"

/** What the test delivery needs: target and decrypted secret (never sent to the client). */
const targetOf = (customerId: number, id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const [row] = yield* sql<{
      url: string
      secret_enc: Buffer
    }>`SELECT url, secret_enc FROM webhook_subscriptions WHERE customer_id = ${customerId} AND id = ${id}`
    if (!row) return yield* Effect.fail(new WebhookNotFound({ message: `no webhook subscription ${id}` }))
    return {
      url: row.url,
      secret: decryptSecret(Buffer.from(row.secret_enc), Redacted.value(config.webhookSecretKey)),
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.webhookAllowPrivateTargets
    }
  })

const gate = {
  allowed: (p: { allow_webhooks: boolean }) => p.allow_webhooks,
  code: "plan_webhooks",
  message: "webhooks are available on Pro and above"
} as const
const HookPath = Schema.Struct({ id: Id("Subscription id (whk_…)", 100) })
const notFound = { 404: { description: "No such subscription" } }

/** Who the subscriptions belong to, and where and for whom the routes are mounted. */
interface Mount<Provided> {
  readonly prefix: string
  readonly access: Access<Provided>
  /** the customer whose subscriptions these are, from what the access provides */
  readonly customer: Effect.Effect<number, never, Provided>
  readonly plan: Effect.Effect<Pick<AuthContext, "plan" | "portalUrl">, never, Provided>
  readonly hidden: boolean
}

/**
 * Subscription management (Pro and above); docs/api/webhooks.md describes it. The same routes
 * serve API keys under /webhooks and the portal's logged-in customer under /portal/webhooks.
 */
const webhookRoutesFor = <Provided>({ prefix, access, customer, plan, hidden }: Mount<Provided>) => {
  const common = { tag: "Webhooks", access, gate, hidden } as const
  const op = (id: string) => (access.kind === "key" ? id : `portal${id[0].toUpperCase()}${id.slice(1)}`)
  return [
    route({
      ...common,
      method: "post",
      path: `${prefix}`,
      operationId: op("createWebhook"),
      summary: "The answer is the only place the signing secret appears",
      body: SubscriptionInput.annotations({ identifier: "WebhookInput" }),
      responses: {
        201: { description: "Created, with its secret", schema: WebhookSubscriptionCreated, headers: ["rateLimit"] }
      },
      handler: ({ body }) =>
        Effect.gen(function* () {
          const auth = yield* plan
          return yield* createSubscription(yield* customer, body).pipe(
            Effect.catchTag("WebhookLimitReached", (e) => Effect.fail(planGate(auth, "plan_webhooks", e.message)))
          )
        })
    }),
    route({
      ...common,
      method: "get",
      path: `${prefix}`,
      operationId: op("listWebhooks"),
      summary: "Pro and above; your subscriptions",
      responses: { 200: { description: "Subscriptions", schema: WebhookSubscriptionList, headers: ["rateLimit"] } },
      handler: () => Effect.map(Effect.flatMap(customer, listSubscriptions), (data) => ({ data }))
    }),
    route({
      ...common,
      method: "get",
      path: `${prefix}/:id`,
      operationId: op("getWebhook"),
      summary: "One subscription",
      params: HookPath,
      responses: {
        200: { description: "The subscription", schema: WebhookSubscription, headers: ["rateLimit"] },
        ...notFound
      },
      handler: ({ params }) => Effect.flatMap(customer, (c) => getSubscription(c, params.id))
    }),
    route({
      ...common,
      method: "patch",
      path: `${prefix}/:id`,
      operationId: op("updateWebhook"),
      summary: "enabled false disables, true re-enables",
      params: HookPath,
      body: SubscriptionPatch.annotations({ identifier: "WebhookPatch" }),
      responses: {
        200: { description: "The subscription as changed", schema: WebhookSubscription, headers: ["rateLimit"] },
        ...notFound
      },
      handler: ({ params, body }) => Effect.flatMap(customer, (c) => updateSubscription(c, params.id, body))
    }),
    route({
      ...common,
      method: "delete",
      path: `${prefix}/:id`,
      operationId: op("deleteWebhook"),
      summary: "Deletes the subscription and its pending deliveries",
      params: HookPath,
      responses: { 204: { description: "Deleted" }, ...notFound },
      handler: ({ params }) =>
        Effect.as(
          Effect.flatMap(customer, (c) => deleteSubscription(c, params.id)),
          new Reply(204, undefined)
        )
    }),
    route({
      ...common,
      method: "post",
      path: `${prefix}/:id/rotate-secret`,
      operationId: op("rotateWebhookSecret"),
      summary: "A new signing secret, shown once",
      params: HookPath,
      responses: { 200: { description: "The new secret", schema: WebhookSecret, headers: ["rateLimit"] }, ...notFound },
      handler: ({ params }) => Effect.flatMap(customer, (c) => rotateSecret(c, params.id))
    }),
    route({
      ...common,
      method: "post",
      path: `${prefix}/:id/test`,
      operationId: op("testWebhook"),
      summary: "Sends a signed test event now; kept as the last test, never a recorded delivery",
      params: HookPath,
      responses: {
        200: { description: "The attempt's outcome", schema: WebhookTestResult, headers: ["rateLimit"] },
        ...notFound
      },
      handler: ({ params }) =>
        Effect.gen(function* () {
          const target = yield* targetOf(yield* customer, params.id)
          return yield* sendTestDelivery(params.id, target)
        })
    }),
    route({
      ...common,
      method: "get",
      path: `${prefix}/:id/test`,
      operationId: op("lastWebhookTest"),
      summary: "The last test delivery: the request as sent and the receiver's answer",
      params: HookPath,
      responses: {
        200: { description: "The last test, or null when none was sent", schema: WebhookLastTest },
        ...notFound
      },
      handler: ({ params }) =>
        Effect.gen(function* () {
          const [row] = yield* lastTestDelivery(yield* customer, params.id)
          if (!row) return yield* Effect.fail(new WebhookNotFound({ message: `no webhook subscription ${params.id}` }))
          return { last_test: row.last_test }
        })
    }),
    route({
      ...common,
      method: "get",
      path: `${prefix}/:id/deliveries`,
      operationId: op("webhookDeliveries"),
      summary: "Deliveries, newest first, with every attempt",
      params: HookPath,
      query: Schema.Struct({
        status: Schema.optional(OneOf(DELIVERY_STATUSES, DELIVERY_STATUSES.join(", "))),
        limit: Schema.optional(Limit(1000)),
        offset: Schema.optional(Offset)
      }),
      responses: {
        200: { description: "A page of deliveries", schema: WebhookDeliveryPage, headers: ["rateLimit"] },
        ...notFound
      },
      handler: ({ params, query }) =>
        Effect.flatMap(customer, (c) =>
          listDeliveries(c, params.id, query.status, query.limit ?? 100, query.offset ?? 0)
        )
    }),
    route({
      ...common,
      method: "post",
      path: `${prefix}/:id/deliveries/:delivery_id/replay`,
      operationId: op("replayWebhookDelivery"),
      summary: "Sends a delivery again",
      params: Schema.Struct({ id: Id("Subscription id (whk_…)", 100), delivery_id: Id("Delivery id (whd_…)", 100) }),
      responses: { 202: { description: "Queued", schema: WebhookReplay, headers: ["rateLimit"] }, ...notFound },
      handler: ({ params }) => Effect.flatMap(customer, (c) => replayDelivery(c, params.id, params.delivery_id))
    })
  ]
}

export const webhookRoutes = webhookRoutesFor({
  prefix: "/webhooks",
  access: Key,
  hidden: false,
  customer: Effect.map(RequestAuth, (a) => a.customerId),
  plan: RequestAuth
})

export const portalWebhookRoutes = webhookRoutesFor({
  prefix: "/portal/webhooks",
  access: Session,
  hidden: true,
  customer: Effect.map(PortalSession, (s) => s.customerId),
  plan: Effect.zipWith(PortalSession, BrowserRequest, (s, b) => ({ plan: s.plan, portalUrl: b.portalUrl }))
})
