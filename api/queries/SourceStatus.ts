import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { MaterializedStream, RecheckStream, RedisStreams, StreamsLive } from "../../shared/bus/RedisStreams.js"
import { CIRCUIT_SKIP, readCircuits } from "../../shared/sources/pollState.js"
import { nowMillis } from "../../shared/time/Now.js"
import { NO_QUALITY, sourceQualityCached } from "./SourceQuality.js"

const DAY_MS = 86_400_000
/** Reasons shown per source (`/data-sources` shows the last read's own). */
const TOP_REASONS = 3
/** Incidents listed, newest first. */
const MAX_INCIDENTS = 50

const percent = (good: number, total: number) => (total === 0 ? null : Math.round((good / total) * 10000) / 100)

/** The UTC days of the last week, oldest first, ending today. */
const lastSevenDays = (now: number) =>
  Array.from({ length: 7 }, (_, i) => new Date(now - (6 - i) * DAY_MS).toISOString().slice(0, 10))

/**
 * Per consumer group, on whichever stream it reads: entries not yet handled and how old the
 * oldest of them is (stream ids are the milliseconds Redis received them at).
 */
export const stageLag = (now: number) =>
  Effect.gen(function* () {
    const all = [yield* RedisStreams, yield* MaterializedStream, yield* RecheckStream]
    const groups = (yield* Effect.forEach(all, (streams) =>
      Effect.map(streams.groups, (gs) => gs.map((g) => ({ streams, g })))
    )).flat()
    return yield* Effect.forEach(groups, ({ streams, g }) =>
      Effect.gen(function* () {
        const base = { group: g.group, lag_messages: g.lag ?? 0, pending: g.pending }
        const behind = yield* streams.oldestWaiting(g).pipe(
          Effect.map((oldest) => {
            if (oldest === null) return 0
            const ms = Number(oldest.split("-")[0])
            return Number.isFinite(ms) ? Math.max(0, Math.round((now - ms) / 100) / 10) : null
          }),
          Effect.orElseSucceed(() => null)
        )
        return { ...base, behind_seconds: behind }
      })
    )
  }).pipe(Effect.provide(StreamsLive))

/**
 * What the public status page shows per source (SPEC §4.6 names only the per-jurisdiction
 * rollup): last poll, circuit, records and rejections with their top reasons, uptime per day
 * (share of polls that were not errors), stage lag per consumer group, and the week's incidents:
 * runs of failed polls during which the circuit opened (polls skipped).
 */
export const sourceStatusReport = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const now = yield* nowMillis
  const days = lastSevenDays(now)
  const since = `${days[0]}T00:00:00.000Z`
  const sources = yield* sql<{
    id: string
    jurisdiction: string
    name: string | null
    kind: string | null
    format: string | null
    poll_interval_s: number
    last_poll_at: string | null
    last_outcome: "ok" | "not_modified" | "empty" | "error" | null
    last_http_status: number | null
    records: number | null
    rejected_7d: number
  }>`
    SELECT s.id, s.jurisdiction, j.name, s.kind, s.format, s.poll_interval_s,
           p.started_at AS last_poll_at, p.outcome AS last_outcome, p.http_status AS last_http_status, r.record_count AS records,
           COALESCE((SELECT sum(rejected_count) FROM source_polls WHERE source = s.id AND started_at >= ${since}::timestamptz), 0)::int AS rejected_7d
    FROM sources s
    LEFT JOIN jurisdictions j ON j.code = s.jurisdiction
    LEFT JOIN LATERAL (SELECT started_at, outcome, http_status FROM source_polls WHERE source = s.id ORDER BY started_at DESC, id DESC LIMIT 1) p ON true
    LEFT JOIN LATERAL (SELECT record_count FROM source_polls WHERE source = s.id AND outcome IN ('ok', 'empty') ORDER BY started_at DESC, id DESC LIMIT 1) r ON true
    ORDER BY s.jurisdiction, s.id`
  const daily = yield* sql<{ source: string; day: string; polls: number; good: number }>`
    SELECT source, to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS polls,
           (count(*) FILTER (WHERE outcome <> 'error'))::int AS good
    FROM source_polls WHERE started_at >= ${since}::timestamptz GROUP BY 1, 2`
  const reasons = yield* sql<{ source: string; reason: string; count: number }>`
    SELECT source, reason, count(*)::int AS count FROM quarantine WHERE polled_at >= ${since}::timestamptz
    GROUP BY source, reason ORDER BY source, count DESC, reason`
  // a run of failed polls is everything after one poll that was not an error up to the next
  const incidents = yield* sql<{
    source: string
    began_at: string
    last_error_at: string
    failed_polls: number
    skipped_polls: number
    ended_at: string | null
  }>`
    WITH p AS (
      SELECT source, started_at, outcome, error,
             count(*) FILTER (WHERE outcome <> 'error') OVER (PARTITION BY source ORDER BY started_at, id) AS run
      FROM source_polls WHERE started_at >= ${since}::timestamptz
    ), runs AS (
      SELECT source, min(started_at) FILTER (WHERE outcome = 'error') AS began_at, max(started_at) FILTER (WHERE outcome = 'error') AS last_error_at,
             (count(*) FILTER (WHERE outcome = 'error'))::int AS failed_polls, (count(*) FILTER (WHERE error = ${CIRCUIT_SKIP}))::int AS skipped_polls
      FROM p GROUP BY source, run
    )
    SELECT r.*, (SELECT min(q.started_at) FROM source_polls q WHERE q.source = r.source AND q.started_at > r.last_error_at AND q.outcome <> 'error') AS ended_at
    FROM runs r WHERE r.skipped_polls > 0 ORDER BY r.began_at DESC LIMIT ${MAX_INCIDENTS}`
  const circuits = yield* readCircuits(sources.map((s) => s.id))
  const quality = yield* sourceQualityCached
  const jurisdictionOf = new Map(sources.map((s) => [s.id, s.jurisdiction]))
  const perDay = new Map(daily.map((d) => [`${d.source} ${d.day}`, d]))
  const reasonsOf = new Map<string, Array<{ reason: string; count: number }>>()
  for (const r of reasons) {
    const list = reasonsOf.get(r.source) ?? []
    if (list.length < TOP_REASONS) list.push({ reason: r.reason, count: r.count })
    reasonsOf.set(r.source, list)
  }
  return {
    generated_at: new Date(now).toISOString(),
    sources: sources.map((s, i) => {
      const openUntil = Option.match(circuits[i], { onNone: () => 0, onSome: (c) => c.openUntil })
      const counted = days.map((day) => ({ day, polls: 0, good: 0, ...perDay.get(`${s.id} ${day}`) }))
      const polls = counted.reduce((n, d) => n + d.polls, 0)
      const good = counted.reduce((n, d) => n + d.good, 0)
      return {
        id: s.id,
        jurisdiction: s.jurisdiction,
        jurisdiction_name: s.name ?? s.jurisdiction,
        kind: s.kind,
        format: s.format,
        poll_interval_s: s.poll_interval_s,
        last_poll_at: s.last_poll_at,
        last_outcome: s.last_outcome,
        last_http_status: s.last_http_status,
        circuit: openUntil > now ? ("open" as const) : ("closed" as const),
        circuit_open_until: openUntil > now ? new Date(openUntil).toISOString() : null,
        records: s.records,
        rejected_7d: s.rejected_7d,
        top_reasons: reasonsOf.get(s.id) ?? [],
        quality: quality.get(s.id) ?? NO_QUALITY,
        uptime_7day_percent: percent(good, polls),
        uptime_by_day: counted.map((d) => ({ day: d.day, polls: d.polls, uptime_percent: percent(d.good, d.polls) }))
      }
    }),
    stages: yield* stageLag(now),
    incidents: incidents.map((r) => ({
      source: r.source,
      jurisdiction: jurisdictionOf.get(r.source) ?? "",
      began_at: r.began_at,
      ended_at: r.ended_at,
      failed_polls: r.failed_polls,
      skipped_polls: r.skipped_polls
    }))
  }
})
