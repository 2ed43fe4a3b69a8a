import { Effect } from "effect"
import { BillingRequestForm } from "../../../shared/portal/forms.js"
import { Reply, route } from "../../http/Route.js"
import { listBillingRequests, requestBilling } from "../../portal/billingRequests.js"
import { PortalSession } from "../../portal/PortalSession.js"
import { usageOf } from "../../portal/usage.js"
import { Session } from "../../http/access.js"

const common = { tag: "Portal", hidden: true, access: Session } as const
const customer = Effect.map(PortalSession, (s) => s.customerId)

/** Usage against the plan, and the upgrade and top-up requests an operator applies. */
export const portalAccountRoutes = [
  route({
    ...common,
    method: "get",
    path: "/portal/usage",
    operationId: "portalUsage",
    summary: "Requests and routing calls against the plan",
    responses: { 200: { description: "Usage" } },
    handler: () => Effect.flatMap(PortalSession, (s) => usageOf(s.customerId, s.plan))
  }),
  route({
    ...common,
    method: "get",
    path: "/portal/billing/requests",
    operationId: "portalBillingRequests",
    summary: "Your upgrade and top-up requests",
    responses: { 200: { description: "Requests, newest first" } },
    handler: () => Effect.map(Effect.flatMap(customer, listBillingRequests), (data) => ({ data }))
  }),
  route({
    ...common,
    method: "post",
    path: "/portal/billing/requests",
    operationId: "portalRequestBilling",
    summary: "Asks for a plan or a routing top-up pack",
    body: BillingRequestForm,
    responses: { 201: { description: "Recorded; an operator applies it" } },
    handler: ({ body }) =>
      Effect.map(
        Effect.flatMap(customer, (c) => requestBilling(c, body)),
        (r) => new Reply(201, r)
      )
  })
]
