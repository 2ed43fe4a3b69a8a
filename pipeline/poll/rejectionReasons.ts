import type { Rejection } from "../sources/Adapter.js"

/** One kind of refusal in a poll: how many records it hit, and one of them as written. */
export interface ReasonCount {
  readonly reason: string
  readonly count: number
  readonly example: string
}

const MAX_REASON = 200

/**
 * The kind of a refusal, so one drifting field reads as one reason however many records it hits:
 * numbers, array positions, the upstream id of a duplicate and the offending value a schema quotes
 * ("actual …") vary record to record; the field and the expectation do not.
 */
export const reasonKind = (reason: string): string =>
  reason
    .replace(/^duplicate upstream id .* in one payload$/, "duplicate upstream id in one payload")
    .replace(/actual [^;]*/g, "actual …")
    .replace(/-?\d+(\.\d+)?/g, "#")
    .slice(0, MAX_REASON)

/** The commonest kinds first (ties by name, so a listing is stable), at most `limit` of them. */
export const topReasons = (
  rejected: ReadonlyArray<Pick<Rejection, "reason">>,
  limit = 5
): ReadonlyArray<ReasonCount> => {
  const byKind = new Map<string, { count: number; example: string }>()
  for (const r of rejected) {
    const kind = reasonKind(r.reason)
    const seen = byKind.get(kind)
    if (seen) seen.count++
    else byKind.set(kind, { count: 1, example: r.reason.slice(0, MAX_REASON) })
  }
  return [...byKind]
    .sort(([a, x], [b, y]) => y.count - x.count || a.localeCompare(b))
    .slice(0, limit)
    .map(([reason, { count, example }]) => ({ reason, count, example }))
}
