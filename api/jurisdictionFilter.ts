import type { AuthContext } from "./middleware/auth.js"
import { planGate } from "./middleware/planGate.js"
import { list } from "./params.js"
import type { Reference } from "./queries/Reference.js"
import { type ApiWarning, unknownValue } from "./warnings.js"

type Query = Record<string, string | string[] | undefined>

/** Jurisdiction filter: one primary code expands to its group; a non-primary code or a list is literal. */
export const jurisdictionFilter = (q: Query, ref: Reference, auth: AuthContext, warnings: Array<ApiWarning>) => {
  const codes = list(q, "jurisdiction")?.map((c) => c.toUpperCase())
  if (!codes) {
    if (auth.plan.requires_jurisdiction) throw planGate(auth, "plan_jurisdiction", "the jurisdiction filter is required on your plan")
    return undefined
  }
  if (auth.plan.max_jurisdictions !== null && codes.length > auth.plan.max_jurisdictions) {
    throw planGate(auth, "plan_jurisdiction", `your plan allows at most ${auth.plan.max_jurisdictions} jurisdiction(s) per request`)
  }
  for (const c of codes) {
    if (!ref.jurisdictions.has(c)) warnings.push(unknownValue("unknown_jurisdiction", "jurisdiction", c, ref.jurisdictions.keys()))
  }
  return codes.length === 1 ? ref.expansion.get(codes[0]) ?? codes : codes
}
