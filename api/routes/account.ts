import { Effect, Schema } from "effect"
import { cached } from "../cached.js"
import { RequestAuth } from "../http/RequestAuth.js"
import { route } from "../http/Route.js"
import { accountOf, listPlans } from "../queries/Account.js"
import { Account, Plan } from "../schemas/account.js"
import { Key, Public } from "../http/access.js"

const plans = cached(3_600_000, listPlans)

/** The public plan catalogue, and the caller's own account (SPEC §2.9 Customer, APIKey and Plan). */
export const accountRoutes = [
  route({
    method: "get",
    path: "/plans",
    operationId: "plans",
    summary: "Public; every plan and its limits",
    tag: "Account",
    access: Public,
    cacheControl: "public, max-age=3600",
    responses: { 200: { description: "Active plans", schema: Schema.Array(Plan) } },
    handler: () => plans
  }),
  route({
    method: "get",
    path: "/account",
    operationId: "account",
    summary: "The calling key, its customer and plan",
    tag: "Account",
    access: Key,
    responses: { 200: { description: "Your account", schema: Account, headers: ["rateLimit"] } },
    handler: () => Effect.flatMap(RequestAuth, (auth) => accountOf(auth.keyId))
  })
]
