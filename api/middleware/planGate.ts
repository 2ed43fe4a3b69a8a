import type Koa from "koa"
import type { AuthContext, Plan } from "./auth.js"
import { ApiError } from "./errors.js"

export type PlanGateCode =
  | "plan_jurisdiction" | "plan_batch_size" | "plan_event_time_range" | "plan_event_status" | "plan_archived_event"
  | "plan_inactive_features" | "plan_geojson" | "plan_analytics" | "plan_truck" | "plan_webhooks" | "trial_expired" | "subscription_expired"

/** A plan-gate 403 with the full SPEC §2.7 body. */
export const planGate = (auth: AuthContext, code: PlanGateCode, error: string) =>
  new ApiError(403, error, {
    code,
    docs_url: `/docs/plans#${code}`,
    plan: auth.plan.code,
    plan_name: auth.plan.name,
    // omitted when no portal is configured (SPEC §2.7)
    ...(auth.portalUrl ? { upgrade_url: `${auth.portalUrl.replace(/\/$/, "")}/billing/upgrade?plan=${auth.plan.code}&gate=${code}` } : {})
  })

/** Middleware for a whole route family behind one plan flag (analytics, truck, webhooks). */
export const requirePlan = (allowed: (plan: Plan) => boolean, code: PlanGateCode, error: string): Koa.Middleware => async (ctx, next) => {
  const auth = ctx.state.auth as AuthContext
  if (!allowed(auth.plan)) throw planGate(auth, code, error)
  await next()
}
