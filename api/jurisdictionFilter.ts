import { Effect, Schema } from "effect"
import { RequestAuth } from "./http/RequestAuth.js"
import { List } from "./http/QueryParams.js"
import { planGate } from "./middleware/planGate.js"
import type { Reference } from "./queries/Reference.js"
import { type ApiWarning, unknownValue } from "./warnings.js"

export const JurisdictionParam = Schema.optional(
  List("Code or comma list; required on Free. A state's primary code expands to its group")
)

/**
 * Jurisdiction filter: one primary code expands to its group; a non-primary code or a list is
 * literal. Unknown codes answer with warnings; the plan's jurisdiction rules are gates.
 */
export const jurisdictionFilter = (
  raw: ReadonlyArray<string> | undefined,
  ref: Reference,
  warnings: Array<ApiWarning>
) =>
  Effect.gen(function* () {
    const auth = yield* RequestAuth
    const codes = raw && raw.length > 0 ? raw.map((c) => c.toUpperCase()) : undefined
    if (!codes) {
      if (auth.plan.requires_jurisdiction)
        return yield* Effect.fail(
          planGate(auth, "plan_jurisdiction", "the jurisdiction filter is required on your plan")
        )
      return undefined
    }
    if (auth.plan.max_jurisdictions !== null && codes.length > auth.plan.max_jurisdictions) {
      return yield* Effect.fail(
        planGate(
          auth,
          "plan_jurisdiction",
          `your plan allows at most ${auth.plan.max_jurisdictions} jurisdiction(s) per request`
        )
      )
    }
    for (const c of codes) {
      if (!ref.jurisdictions.has(c))
        warnings.push(unknownValue("unknown_jurisdiction", "jurisdiction", c, ref.jurisdictions.keys(), ref.names))
    }
    return codes.length === 1 ? (ref.expansion.get(codes[0]) ?? codes) : codes
  })
