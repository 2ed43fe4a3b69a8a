import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { EVENT_TYPES, SEVERITIES } from "../../shared/domain/Event.js"
import { type FactFilters, factWhere } from "./AnalyticsFacts.js"

export const BUCKETS = ["hour", "day", "week"] as const
export type Bucket = (typeof BUCKETS)[number]
export const GROUPINGS = ["type", "severity", "jurisdiction"] as const
export type Grouping = (typeof GROUPINGS)[number]

/** Periods one trends answer may hold (an hourly year is 8,784). */
export const MAX_PERIODS = 10_000

const HOUR = 3_600_000
const DAY = 24 * HOUR
const STEP: Record<Bucket, number> = { hour: HOUR, day: DAY, week: 7 * DAY }

/** The UTC start of the bucket holding `ms`; weeks are ISO weeks, Monday 00:00 UTC. */
export const bucketStart = (ms: number, bucket: Bucket) => {
  if (bucket === "hour") return Math.floor(ms / HOUR) * HOUR
  const day = Math.floor(ms / DAY) * DAY
  if (bucket === "day") return day
  const mondayOffset = (new Date(day).getUTCDay() + 6) % 7
  return day - mondayOffset * DAY
}

/** Every period start from the one holding `since` to the one holding the last instant before `until`. */
export const periodStarts = (since: string, until: string, bucket: Bucket) => {
  const out: Array<number> = []
  const end = Date.parse(until)
  for (let t = bucketStart(Date.parse(since), bucket); t < end; t += STEP[bucket]) out.push(t)
  return out
}

/** A period's label: the date (day, and the Monday of a week), or the hour in ISO form. */
export const periodLabel = (ms: number, bucket: Bucket) => {
  const iso = new Date(ms).toISOString()
  return bucket === "hour" ? `${iso.slice(0, 13)}:00:00Z` : iso.slice(0, 10)
}

export interface TrendRow {
  readonly period: string
  readonly total: number
  readonly [by: `by_${string}`]: Record<string, number>
}

/**
 * Events first reported per period (UTC), split by the grouping. Every period of the window is
 * present, and every period names the same keys (all event types or severities; the
 * jurisdictions that appear anywhere in the window), so a quiet period is a row of zeros.
 */
export const trends = (f: FactFilters, bucket: Bucket, groupBy: Grouping, starts: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ p: number; g: string; n: number }>`
      SELECT (extract(epoch FROM date_trunc(${bucket}, a.created_at AT TIME ZONE 'UTC')) * 1000)::int8 AS p,
             CASE ${groupBy}::text WHEN 'type' THEN a.type WHEN 'severity' THEN a.severity ELSE a.jurisdiction END AS g,
             count(*)::int AS n
      FROM analytics_events a WHERE ${factWhere(sql, f)} GROUP BY 1, 2`
    const keys =
      groupBy === "type"
        ? [...EVENT_TYPES]
        : groupBy === "severity"
          ? [...SEVERITIES]
          : [...new Set(rows.map((r) => r.g))].sort()
    const counts = new Map<number, Map<string, number>>()
    for (const r of rows) {
      const m = counts.get(r.p) ?? new Map<string, number>()
      m.set(r.g, (m.get(r.g) ?? 0) + r.n)
      counts.set(r.p, m)
    }
    return starts.map((p) => {
      const m = counts.get(p)
      const by = Object.fromEntries(keys.map((k) => [k, m?.get(k) ?? 0]))
      const total = m ? [...m.values()].reduce((s, n) => s + n, 0) : 0
      return { period: periodLabel(p, bucket), total, [`by_${groupBy}`]: by } as TrendRow
    })
  })
