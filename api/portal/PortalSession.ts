import { Context } from "effect"
import type { Plan } from "../http/AuthContext.js"

/** The customer a portal session belongs to (routes with access "session"). */
export interface PortalSessionShape {
  readonly idHash: Buffer
  readonly customerId: number
  readonly email: string
  readonly emailVerified: boolean
  readonly plan: Plan
}

export class PortalSession extends Context.Tag("api/PortalSession")<PortalSession, PortalSessionShape>() {}
