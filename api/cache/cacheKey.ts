import type { Plan } from "../http/AuthContext.js"
import type { AuthContext } from "../http/AuthContext.js"

/** The query as a key: the API key parameter left out, parameters in name order (values of one name keep theirs). */
export const canonicalQuery = (querystring: string) => {
  const params = new URLSearchParams(querystring)
  params.delete("api_key")
  const entries = [...params.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return new URLSearchParams(entries).toString()
}

const views = new WeakMap<Plan, string>()

/**
 * What of the caller an answer may depend on: the whole plan row (delay, history window, caps,
 * gates), never the key or the customer. Two callers share an answer only when their plans are
 * identical in every field.
 */
export const viewOf = (auth: AuthContext) => {
  let v = views.get(auth.plan)
  if (v === undefined) {
    v = JSON.stringify(Object.entries(auth.plan).sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    views.set(auth.plan, v)
  }
  return v
}

export const cacheKeyOf = (
  operationId: string,
  params: Record<string, string>,
  querystring: string,
  auth: AuthContext
) => `${operationId}\n${JSON.stringify(params)}\n${canonicalQuery(querystring)}\n${viewOf(auth)}`

/**
 * How long an answer is kept at most, whatever the invalidations say. A delayed plan's view moves
 * with the clock (an event ages into it), so its answers live 1 s: its view is never fresher than
 * the delay and at most 1 s later. Real-time answers move only by changes; 30 s is the safety net
 * for what no change announces (coverage notes, the edge of a history window).
 */
export const keepFor = (plan: Plan) => (plan.data_delay_sec > 0 ? 1_000 : 30_000)
