import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { readCircuits } from "../../shared/sources/pollState.js"
import { nowMillis } from "../../shared/time/Now.js"

type Health = "healthy" | "warning" | "critical"

const worst = (a: Health, b: Health): Health =>
  a === "critical" || b === "critical" ? "critical" : a === "warning" || b === "warning" ? "warning" : "healthy"

/**
 * Public status (SPEC §4.6): per source, its last poll and circuit; per jurisdiction, the worst
 * of its sources, open circuits and 7-day uptime (share of polls that were not errors); the
 * pipeline worker is healthy while some poll happened recently.
 */
export const statusReport = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const now = yield* nowMillis
  const weekAgo = new Date(now - 7 * 86_400_000).toISOString()
  const sources = yield* sql<{
    id: string
    jurisdiction: string
    name: string | null
    country: string | null
    poll_interval_s: number
    last_poll_at: string | null
    last_outcome: string | null
    polls_7d: number
    good_7d: number
  }>`
    SELECT s.id, s.jurisdiction, j.name, j.country, s.poll_interval_s, p.started_at AS last_poll_at, p.outcome AS last_outcome,
           COALESCE(w.total, 0)::int AS polls_7d, COALESCE(w.good, 0)::int AS good_7d
    FROM sources s
    LEFT JOIN jurisdictions j ON j.code = s.jurisdiction
    LEFT JOIN LATERAL (SELECT started_at, outcome FROM source_polls WHERE source = s.id ORDER BY started_at DESC, id DESC LIMIT 1) p ON true
    LEFT JOIN LATERAL (SELECT count(*) AS total, count(*) FILTER (WHERE outcome <> 'error') AS good
                       FROM source_polls WHERE source = s.id AND started_at > ${weekAgo}::timestamptz) w ON true`
  const circuits = yield* readCircuits(sources.map((s) => s.id))
  const perSource = sources.map((s, i) => {
    const open = Option.exists(circuits[i], (c) => c.openUntil > now)
    const silentFor = s.last_poll_at ? (now - Date.parse(s.last_poll_at)) / 1000 : Number.POSITIVE_INFINITY
    const health: Health =
      open || silentFor > s.poll_interval_s * 3 + 60 ? "critical" : s.last_outcome === "error" ? "warning" : "healthy"
    return { ...s, open, health }
  })
  const byJurisdiction = new Map<string, typeof perSource>()
  for (const s of perSource) byJurisdiction.set(s.jurisdiction, [...(byJurisdiction.get(s.jurisdiction) ?? []), s])
  const jurisdictions = [...byJurisdiction]
    .map(([code, ss]) => {
      const polls = ss.reduce((n, s) => n + s.polls_7d, 0)
      const good = ss.reduce((n, s) => n + s.good_7d, 0)
      return {
        code,
        name: ss[0].name ?? code,
        country: ss[0].country,
        status: ss.map((s) => s.health).reduce(worst, "healthy" as Health),
        total_resources: ss.length,
        open_circuits: ss.filter((s) => s.open).length,
        uptime_7day_percent: polls === 0 ? null : Math.round((good / polls) * 10000) / 100
      }
    })
    .sort((a, b) => a.code.localeCompare(b.code))
  const lastSeen =
    sources
      .map((s) => s.last_poll_at)
      .filter((x): x is string => x !== null)
      .sort()
      .pop() ?? null
  const staleness = lastSeen ? Math.round((now - Date.parse(lastSeen)) / 1000) : null
  const fastest = Math.min(60, ...sources.map((s) => s.poll_interval_s))
  const workerHealthy = staleness !== null && staleness <= Math.max(120, fastest * 3)
  const count = (h: Health) => perSource.filter((s) => s.health === h).length
  const critical = count("critical")
  return {
    overall:
      !workerHealthy || (critical > 0 && critical === perSource.length)
        ? "down"
        : critical > 0 || count("warning") > 0
          ? "degraded"
          : "ok",
    generated_at: new Date(now).toISOString(),
    worker: { last_seen: lastSeen, staleness_seconds: staleness, healthy: workerHealthy },
    total_resources: perSource.length,
    healthy: count("healthy"),
    warning: count("warning"),
    critical,
    jurisdictions
  }
})
