import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Key, Portal, Public, Session } from "../../../api/http/access.js"
import { Limit } from "../../../api/http/QueryParams.js"
import { RequestAuth } from "../../../api/http/RequestAuth.js"
import { route } from "../../../api/http/Route.js"
import { BrowserRequest } from "../../../api/portal/BrowserRequest.js"
import { PortalSession } from "../../../api/portal/PortalSession.js"

/**
 * A route is typed by its access kind: its handler and its Schemas may ask for what that kind
 * provides and nothing else. Each `@ts-expect-error` below is a route that must not compile
 * (`npm run typecheck` fails when one does), each plain declaration one that must.
 */
const facts = { method: "get", path: "/x", operationId: "x", summary: "x", tag: "X", responses: {} } as const

describe("routes typed by their access kind", () => {
  it("lets each kind ask for what it provides", () => {
    const declared = [
      route({ ...facts, access: Public, handler: () => Effect.succeed("anyone") }),
      route({ ...facts, access: Key, handler: () => Effect.map(RequestAuth, (a) => a.customerId) }),
      route({
        ...facts,
        access: Key,
        query: Schema.Struct({ limit: Schema.optional(Limit()) }),
        handler: () => Effect.void
      }),
      route({ ...facts, access: Portal, handler: () => Effect.map(BrowserRequest, (b) => b.portalUrl) }),
      route({ ...facts, access: Session, handler: () => Effect.map(PortalSession, (s) => s.customerId) }),
      route({ ...facts, access: Session, handler: () => Effect.map(BrowserRequest, (b) => b.portalUrl) })
    ]
    expect(declared.map((r) => r.access.kind)).toEqual(["public", "key", "key", "portal", "session", "session"])
  })

  it("refuses, at compile time, a handler or Schema asking for what its kind does not provide", () => {
    const refused = [
      // @ts-expect-error a keyed route has no portal session
      route({ ...facts, access: Key, handler: () => Effect.map(PortalSession, (s) => s.customerId) }),
      // @ts-expect-error a public route has no API key's caller
      route({ ...facts, access: Public, handler: () => Effect.map(RequestAuth, (a) => a.customerId) }),
      // @ts-expect-error a portal route before sign-in has no session
      route({ ...facts, access: Portal, handler: () => Effect.map(PortalSession, (s) => s.customerId) }),
      route({
        ...facts,
        access: Session,
        // @ts-expect-error a session route has no API key: the plan's page-size cap is a keyed route's
        query: Schema.Struct({ limit: Schema.optional(Limit()) }),
        handler: () => Effect.void
      })
    ]
    // they still build at run time; the compiler is what refuses them
    expect(refused).toHaveLength(4)
  })
})
