import { useEffect, useState } from "preact/hooks"
import type { SourceStatusReport, Status } from "../../../api/schemas/metadata.js"
import { call, explain } from "../api.js"
import { fmt, formatDate } from "../forms.js"
import { Alert, Badge, Card, Table } from "../ui.js"
import { QUALITY_FLAG_LABELS } from "../../../shared/domain/qualityFlags.js"

// the API's own answer Schemas, as types only: a renamed field breaks this page's build
type Overall = typeof Status.Encoded
type Detail = typeof SourceStatusReport.Encoded
type Source = Detail["sources"][number]

/** The page reloads its figures this often (the API keeps them 30 s). */
const REFRESH_MS = 30_000

const OVERALL: Record<Overall["overall"], { kind: "ok" | "warn" | "off"; text: string }> = {
  ok: { kind: "ok", text: "All sources are being read normally" },
  degraded: { kind: "warn", text: "Some sources are failing or late" },
  down: { kind: "off", text: "The pipeline is not reading sources" }
}

/** The processing steps in a customer's words (operators read the stream groups on /metrics). */
const STAGE_NAMES: Record<string, string> = {
  materialize: "Saving new and changed events",
  webhooks: "Webhook deliveries",
  "route-monitor": "Watching saved routes",
  analytics: "Analytics",
  coverage: "Coverage counts",
  links: "Linking reports of one event",
  weather: "Weather at events"
}
const KINDS: Record<string, string> = { events: "traffic events", features: "road features", prices: "fuel prices" }

const outcomeBadge = (s: Source) => {
  if (s.last_outcome === null) return <Badge kind="muted">Not polled yet</Badge>
  if (s.last_outcome === "error")
    return <Badge kind="off">Failed{s.last_http_status ? ` (HTTP ${s.last_http_status})` : ""}</Badge>
  return (
    <Badge kind="ok">
      {s.last_outcome === "not_modified" ? "Unchanged" : s.last_outcome === "empty" ? "Empty feed" : "OK"}
    </Badge>
  )
}

/** One line per source: how many records the editor repaired, and how many carry each flag. */
const qualityLine = (q: Source["quality"]) => {
  const repaired = Object.values(q.repaired).reduce((n, c) => n + c, 0)
  const flagged = Object.entries(q.flagged).map(
    ([k, n]) => `${fmt(n)} ${(QUALITY_FLAG_LABELS[k as keyof typeof QUALITY_FLAG_LABELS] ?? k).toLowerCase()}`
  )
  const parts = [...(repaired > 0 ? [`${fmt(repaired)} text repairs`] : []), ...flagged]
  return parts.length === 0 ? "Clean" : parts.join(" · ")
}

const shade = (uptime: number | null) =>
  uptime === null ? "none" : uptime >= 99 ? "good" : uptime >= 90 ? "fair" : "poor"

/** Seven UTC days as bars, one per day: height and colour by the share of polls that worked. */
const UptimeStrip = ({ days }: { days: Source["uptime_by_day"] }) => {
  const label = days
    .map((d) => `${d.day}: ${d.uptime_percent === null ? "no polls" : `${d.uptime_percent}% of ${fmt(d.polls)} polls`}`)
    .join("; ")
  return (
    <svg
      class="uptime-strip"
      viewBox="0 0 70 20"
      width="70"
      height="20"
      role="img"
      aria-label={`Uptime by day, oldest first: ${label}`}
    >
      {days.map((d, i) => {
        const h = d.uptime_percent === null ? 4 : Math.max(4, (d.uptime_percent / 100) * 20)
        return (
          <rect
            key={d.day}
            x={i * 10 + 1}
            y={20 - h}
            width="8"
            height={h}
            rx="1"
            class={`uptime-${shade(d.uptime_percent)}`}
          >
            <title>{`${d.day}: ${d.uptime_percent === null ? "no polls" : `${d.uptime_percent}%`}`}</title>
          </rect>
        )
      })}
    </svg>
  )
}

const seconds = (s: number | null) =>
  s === null
    ? "unknown"
    : s < 1
      ? "caught up"
      : s < 120
        ? `${s.toFixed(0)} s behind`
        : `${(s / 60).toFixed(0)} min behind`

/** Public: how every source and pipeline stage is doing, and the week's incidents. No login. */
export const StatusPage = () => {
  const [overall, setOverall] = useState<Overall | null>(null)
  const [detail, setDetail] = useState<Detail | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let stopped = false
    const load = () =>
      Promise.all([call<Overall>("GET", "/status"), call<Detail>("GET", "/status/sources")]).then(
        ([o, d]) => {
          if (stopped) return
          setOverall(o)
          setDetail(d)
          setError(null)
        },
        (e) => !stopped && setError(explain(e))
      )
    load()
    const timer = setInterval(load, REFRESH_MS)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [])
  if (!overall || !detail)
    return error ? (
      <Alert kind="error">{error}</Alert>
    ) : (
      <p class="loading" role="status">
        Loading…
      </p>
    )
  const o = OVERALL[overall.overall]
  const names = new Map(detail.sources.map((s) => [s.id, s.jurisdiction_name]))
  return (
    <div>
      <h1>Service status</h1>
      {error && (
        <Alert kind="warning">
          Could not refresh: {error}. Showing figures from {formatDate(detail.generated_at)}.
        </Alert>
      )}
      <div class={`status-banner status-${o.kind}`} data-testid="overall">
        <Badge kind={o.kind}>
          {overall.overall === "ok" ? "Operational" : overall.overall === "degraded" ? "Degraded" : "Down"}
        </Badge>
        <span>
          {o.text}. {fmt(overall.healthy)} of {fmt(overall.total_resources)} sources healthy, {fmt(overall.warning)}{" "}
          warning, {fmt(overall.critical)} critical.
        </span>
      </div>
      <p class="muted">
        Updated {formatDate(detail.generated_at)}; refreshes every 30 seconds. Last poll by the pipeline:{" "}
        {formatDate(overall.worker.last_seen) || "none yet"}.
      </p>

      <Card title="Processing">
        {detail.stages.length === 0 ? (
          <p>Processing has not started yet.</p>
        ) : (
          <Table head={["Step", "Changes waiting", "In progress", "Delay"]} testId="stages" stack>
            {detail.stages.map((g) => (
              <tr key={g.group} data-stage={g.group}>
                <td data-label="Step">{STAGE_NAMES[g.group] ?? g.group}</td>
                <td data-label="Changes waiting">{fmt(g.lag_messages)}</td>
                <td data-label="In progress">{fmt(g.pending)}</td>
                <td data-label="Delay">{seconds(g.behind_seconds)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>

      <Card title={`Sources (${fmt(detail.sources.length)})`}>
        <Table
          head={["Feed", "Last check", "Checking", "Records", "Refused, 7 days", "Available, 7 days"]}
          testId="sources"
          stack
        >
          {detail.sources.map((s) => (
            <tr key={s.id} data-source={s.id}>
              <td class="wrap" data-label="Feed">
                <strong>{s.jurisdiction_name}</strong>
                <br />
                <span class="muted">{KINDS[s.kind ?? ""] ?? "road data"}</span>
              </td>
              <td data-label="Last check">
                {outcomeBadge(s)}
                <br />
                <span class="muted">{s.last_poll_at ? formatDate(s.last_poll_at) : "never"}</span>
              </td>
              <td data-label="Checking">
                {s.circuit === "open" ? (
                  <Badge kind="off">Paused until {formatDate(s.circuit_open_until)}</Badge>
                ) : (
                  <Badge kind="ok">Every few seconds</Badge>
                )}
              </td>
              <td class="wrap" data-label="Records">
                {s.records === null ? "–" : fmt(s.records)}
                <br />
                <span class="muted quality" data-quality>
                  {qualityLine(s.quality)}
                </span>
              </td>
              <td class="wrap reasons-cell" data-label="Refused, 7 days">
                {fmt(s.rejected_7d)}
                {s.top_reasons.length > 0 && (
                  <ul class="reasons">
                    {s.top_reasons.map((r) => (
                      <li key={r.reason}>
                        {r.reason} <span class="muted">×{fmt(r.count)}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td data-label="Available, 7 days">
                <UptimeStrip days={s.uptime_by_day} />{" "}
                {s.uptime_7day_percent === null ? "no polls" : `${s.uptime_7day_percent}%`}
              </td>
            </tr>
          ))}
        </Table>
      </Card>

      <Card title="Feed outages, last 7 days">
        {detail.incidents.length === 0 ? (
          <p data-testid="incidents">No feed outages in the last 7 days.</p>
        ) : (
          <Table head={["Feed", "Began", "Ended", "Failed checks", "Checks skipped"]} testId="incidents" stack>
            {detail.incidents.map((i) => (
              <tr key={`${i.source} ${i.began_at}`}>
                <td data-label="Feed">{names.get(i.source) ?? i.jurisdiction}</td>
                <td data-label="Began">{formatDate(i.began_at)}</td>
                <td data-label="Ended">{i.ended_at ? formatDate(i.ended_at) : <Badge kind="warn">Ongoing</Badge>}</td>
                <td data-label="Failed checks">{fmt(i.failed_polls)}</td>
                <td data-label="Checks skipped">{fmt(i.skipped_polls)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <p class="muted">
        Also as JSON: <a href="/api/v1/status">/api/v1/status</a> and{" "}
        <a href="/api/v1/status/sources">/api/v1/status/sources</a> (no key needed).
      </p>
    </div>
  )
}
