import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from "chart.js"
import { useEffect, useRef, useState } from "preact/hooks"
import { call, explain } from "../api.js"
import { fmt, formatDate } from "../forms.js"
import { Link } from "../router.js"
import { Alert, Badge, Card, Table, useAction } from "../ui.js"

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip)

interface Usage {
  readonly plan: {
    code: string
    name: string
    daily_request_limit: number | null
    rate_limit_rpm: number
    allow_geojson: boolean
    allow_analytics: boolean
    allow_truck_data: boolean
    allow_webhooks: boolean
    requires_jurisdiction: boolean
    max_jurisdictions: number | null
    data_delay_sec: number
  }
  readonly today: {
    day: string
    requests: number
    daily_limit: number | null
    keys: ReadonlyArray<{ id: number; name: string; key_prefix: string; rate_limit_rpm: number; this_minute: number }>
  }
  readonly days: ReadonlyArray<{ day: string; requests: number }>
  readonly routing: {
    month: string
    used: number
    quota: number
    daily_cap: number | null
    used_today: number
    pack_calls_left: number
    packs: ReadonlyArray<{ id: number; calls: number; used: number; granted_at: string }>
  }
}

const DailyChart = ({ days }: { days: Usage["days"] }) => {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    if (!canvas.current) return
    const chart = new Chart(canvas.current, {
      type: "bar",
      data: {
        labels: days.map((d) => d.day.slice(5)),
        datasets: [
          { label: "Requests", data: days.map((d) => d.requests), backgroundColor: "#2563eb", borderRadius: 3 }
        ]
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
        plugins: { tooltip: { enabled: true } }
      }
    })
    return () => chart.destroy()
  }, [days])
  const total = days.reduce((n, d) => n + d.requests, 0)
  return (
    <figure class="chart">
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={`Requests per day over the last 30 days: ${fmt(total)} in all`} />
      </div>
      <figcaption>Requests per day, last 30 days (UTC): {fmt(total)} in all.</figcaption>
    </figure>
  )
}

const Meter = ({ used, limit, label }: { used: number; limit: number; label: string }) => (
  <div class="meter">
    <div class="meter-label">
      <span>{label}</span>
      <span>
        {fmt(used)} / {fmt(limit)}
      </span>
    </div>
    <progress max={limit} value={Math.min(used, limit)} aria-label={label}>
      {fmt(used)} of {fmt(limit)}
    </progress>
  </div>
)

const Gate = ({ on, children }: { on: boolean; children: string }) => (
  <li>
    {on ? <Badge kind="ok">Included</Badge> : <Badge kind="muted">Not on this plan</Badge>} {children}
  </li>
)

export const UsagePage = () => {
  const [usage, setUsage] = useState<Usage | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const action = useAction()
  const load = () => call<Usage>("GET", "/portal/usage").then(setUsage, (e) => action.setError(explain(e)))
  useEffect(() => void load(), [])
  const requestPack = () =>
    action.run(async () => {
      await call("POST", "/portal/billing/requests", { kind: "routing_pack" })
      setNote(
        "Your request for a pack of 1,000 routing calls is recorded. An operator adds it to your account; it then shows here."
      )
    }, explain)
  if (!usage)
    return (
      <div>
        <h1>Usage</h1>
        {action.error ? <Alert kind="error">{action.error}</Alert> : <p role="status">Loading…</p>}
      </div>
    )
  const { plan, today, routing } = usage
  return (
    <div>
      <h1>Usage</h1>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      {note && <Alert kind="success">{note}</Alert>}
      <div class="grid">
        <Card title="Requests today">
          {today.daily_limit !== null ? (
            <Meter used={today.requests} limit={today.daily_limit} label={`Today (${today.day}, UTC)`} />
          ) : (
            <p class="big">{fmt(today.requests)}</p>
          )}
          <p class="hint">
            {today.daily_limit !== null ? "The daily limit resets at 00:00 UTC." : "Your plan has no daily limit."}
          </p>
          <h3>Per key, this minute</h3>
          {today.keys.length === 0 ? (
            <p>No active keys.</p>
          ) : (
            today.keys.map((k) => (
              <Meter key={k.id} used={k.this_minute} limit={k.rate_limit_rpm} label={`${k.name} (${k.key_prefix}…)`} />
            ))
          )}
        </Card>
        <Card title="Routing calls">
          {routing.quota > 0 ? (
            <Meter used={routing.used} limit={routing.quota} label={`This month (${routing.month})`} />
          ) : (
            <p>Your plan includes no monthly routing calls.</p>
          )}
          {routing.daily_cap !== null && (
            <Meter used={routing.used_today} limit={routing.daily_cap} label="Today (trial cap)" />
          )}
          <h3>Top-up packs</h3>
          <p class="hint">
            Packs are used once the month's calls are spent, oldest pack first. Unused calls carry over.
          </p>
          {routing.packs.length === 0 ? (
            <p>No packs yet.</p>
          ) : (
            <Table head={["Pack", "Added", "Used", "Left"]}>
              {routing.packs.map((p) => (
                <tr key={p.id}>
                  <td>#{p.id}</td>
                  <td>{formatDate(p.granted_at)}</td>
                  <td>
                    {fmt(p.used)} / {fmt(p.calls)}
                  </td>
                  <td>{fmt(p.calls - p.used)}</td>
                </tr>
              ))}
            </Table>
          )}
          <p>
            <button type="button" class="btn" onClick={requestPack} disabled={action.busy}>
              Request a pack of 1,000 calls
            </button>
          </p>
        </Card>
      </div>
      <Card title="Last 30 days">
        <DailyChart days={usage.days} />
      </Card>
      <Card
        title={`Your plan: ${plan.name}`}
        actions={
          <Link href="/billing/upgrade" class="btn">
            Change plan
          </Link>
        }
      >
        <ul class="gates">
          <li>
            <Badge kind="ok">{fmt(plan.rate_limit_rpm)}/min</Badge> requests per minute per key
            {plan.daily_request_limit !== null ? `, ${fmt(plan.daily_request_limit)} per day` : ""}
          </li>
          {plan.requires_jurisdiction && (
            <li>
              <Badge kind="warn">Required</Badge> a jurisdiction filter on every request
              {plan.max_jurisdictions ? ` (at most ${plan.max_jurisdictions})` : ""}
            </li>
          )}
          <li>
            <Badge kind={plan.data_delay_sec === 0 ? "ok" : "warn"}>
              {plan.data_delay_sec === 0 ? "Real-time" : `${plan.data_delay_sec / 60} min delay`}
            </Badge>{" "}
            data freshness
          </li>
          <Gate on={plan.allow_geojson}>GeoJSON endpoints</Gate>
          <Gate on={plan.allow_truck_data}>Truck corridor and truck routing</Gate>
          <Gate on={plan.allow_analytics}>Analytics over event history</Gate>
          <Gate on={plan.allow_webhooks}>Signed webhooks</Gate>
        </ul>
      </Card>
    </div>
  )
}
