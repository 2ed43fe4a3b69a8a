import { PlanGate, type PlanGateCode } from "../http/HttpError.js"
import type { AuthContext } from "../http/AuthContext.js"

export type { PlanGateCode }

/** A plan-gate 403 (SPEC §2.7): the code to branch on, the caller's plan and, with a portal, where to upgrade. */
export const planGate = (auth: Pick<AuthContext, "plan" | "portalUrl">, code: PlanGateCode, message: string) =>
  new PlanGate({
    message,
    code,
    plan: auth.plan.code,
    planName: auth.plan.name,
    // omitted when no portal is configured (SPEC §2.7)
    upgradeUrl: auth.portalUrl
      ? `${auth.portalUrl.replace(/\/$/, "")}/billing/upgrade?plan=${auth.plan.code}&gate=${code}`
      : undefined
  })
