import { Effect, Schema } from "effect"
import { KeyForm } from "../../../shared/portal/forms.js"
import { Forbidden } from "../../http/HttpError.js"
import { Reply, route } from "../../http/Route.js"
import { issueKey, listKeys, revokeKey } from "../../portal/keys.js"
import { PortalSession } from "../../portal/PortalSession.js"
import { Session } from "../../http/access.js"

const common = { tag: "Portal", hidden: true, access: Session } as const

/** API keys of the logged-in customer (SPEC §5.7: key issuance happens in the portal). */
export const portalKeyRoutes = [
  route({
    ...common,
    method: "get",
    path: "/portal/keys",
    operationId: "portalKeys",
    summary: "Your keys, never their secrets",
    responses: { 200: { description: "Keys" } },
    handler: () =>
      Effect.map(
        Effect.flatMap(PortalSession, (s) => listKeys(s.customerId)),
        (data) => ({ data })
      )
  }),
  route({
    ...common,
    method: "post",
    path: "/portal/keys",
    operationId: "portalCreateKey",
    summary: "A new key, shown once",
    body: KeyForm,
    responses: { 201: { description: "Created, with the key" } },
    handler: ({ body }) =>
      Effect.gen(function* () {
        const s = yield* PortalSession
        if (!s.emailVerified)
          return yield* new Forbidden({
            message: "confirm your email first: we sent you a link when you signed up",
            docsUrl: "/docs/portal"
          })
        return new Reply(201, yield* issueKey(s.customerId, body))
      })
  }),
  route({
    ...common,
    method: "delete",
    path: "/portal/keys/:id",
    operationId: "portalRevokeKey",
    summary: "Revokes a key",
    params: Schema.Struct({ id: Schema.NumberFromString.pipe(Schema.int(), Schema.positive()) }),
    responses: { 204: { description: "Revoked" } },
    handler: ({ params }) =>
      Effect.as(
        Effect.flatMap(PortalSession, (s) => revokeKey(s.customerId, params.id)),
        new Reply(204, undefined)
      )
  })
]
