import { useEffect, useState } from "preact/hooks"
import { call, explain } from "../api.js"
import { fmt, formatDate } from "../forms.js"
import { useSession } from "../session.js"
import { Alert, Badge, Card, Table, useAction } from "../ui.js"

interface Plan {
  readonly code: string
  readonly name: string
  readonly description: string
  readonly features: ReadonlyArray<{ key: string; label: string }>
  readonly rate_limit_rpm: number
  readonly daily_request_limit: number | null
  readonly monthly_routing_quota: number
  readonly data_delay_sec: number
  readonly is_contact_sales: boolean
  readonly monthly_price: number | null
  readonly currency: string
  readonly trial_days: number | null
}
interface BillingRequest {
  readonly id: number
  readonly kind: "upgrade" | "routing_pack"
  readonly plan_code: string | null
  readonly pack_calls: number | null
  readonly status: "pending" | "applied" | "declined"
  readonly created_at: string
  readonly decided_at: string | null
  readonly monthly_price: number | null
  readonly currency: string | null
}

const money = (value: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 0 }).format(value)

/** A plan's price as the plans page and its request button say it. */
export const priceText = (p: Pick<Plan, "monthly_price" | "currency" | "trial_days">) =>
  p.monthly_price === null
    ? "Priced with you"
    : p.monthly_price === 0
      ? `Free${p.trial_days ? ` for ${p.trial_days} days` : ""}`
      : `${money(p.monthly_price, p.currency)} a month`

const GATES: Record<string, string> = {
  plan_geojson: "GeoJSON",
  plan_analytics: "analytics",
  plan_truck: "truck data and routing",
  plan_webhooks: "webhooks",
  plan_jurisdiction: "more jurisdictions per request",
  trial_expired: "continuing after the trial",
  subscription_expired: "renewing your subscription",
  routing_quota_exhausted: "more routing calls",
  routing_daily_cap: "more routing calls per day"
}

/** The target of plan-gate `upgrade_url`: the plans, and requests an operator applies. */
export const BillingPage = ({ search }: { search: string }) => {
  const { customer } = useSession()
  const [plans, setPlans] = useState<ReadonlyArray<Plan>>([])
  const [requests, setRequests] = useState<ReadonlyArray<BillingRequest>>([])
  const action = useAction()
  const gate = new URLSearchParams(search).get("gate")
  const load = async () => {
    const [p, r] = await Promise.all([
      call<Array<Plan>>("GET", "/plans"),
      call<{ data: Array<BillingRequest> }>("GET", "/portal/billing/requests")
    ])
    setPlans(p)
    setRequests(r.data)
  }
  useEffect(() => void load().catch((e) => action.setError(explain(e))), [])
  const ask = (plan: string) =>
    action.run(async () => {
      await call("POST", "/portal/billing/requests", { kind: "upgrade", plan })
      await load()
    }, explain)
  const pending = (code: string) =>
    requests.some((r) => r.kind === "upgrade" && r.plan_code === code && r.status === "pending")
  return (
    <div>
      <h1>Plans</h1>
      {gate && (
        <Alert kind="info">
          The request that sent you here needs {GATES[gate] ?? "a larger plan"}. The plans below say which include it.
        </Alert>
      )}
      <Alert kind="info">
        There is no online payment yet. A plan change you request here goes to an operator, who applies it; its status
        shows below.
      </Alert>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      <div class="plans">
        {plans.map((p) => {
          const current = customer?.plan_code === p.code
          return (
            <section class={current ? "plan current" : "plan"} key={p.code} aria-label={`${p.name} plan`}>
              <h2>
                {p.name} {current && <Badge kind="ok">Your plan</Badge>}
              </h2>
              <p class="price" data-testid={`price-${p.code}`}>
                <strong>{priceText(p)}</strong>
                {p.monthly_price !== null && p.monthly_price > 0 && (
                  <span class="hint"> ({p.currency}, excl. tax)</span>
                )}
              </p>
              <p>{p.description}</p>
              <ul>
                <li>
                  {fmt(p.rate_limit_rpm)} requests/min per key
                  {p.daily_request_limit !== null ? `, ${fmt(p.daily_request_limit)}/day` : ""}
                </li>
                <li>{p.data_delay_sec === 0 ? "Real-time data" : `Data delayed ${p.data_delay_sec / 60} min`}</li>
                {p.monthly_routing_quota > 0 && <li>{fmt(p.monthly_routing_quota)} routing calls/month</li>}
                {p.features.map((f) => (
                  <li key={f.key}>{f.label}</li>
                ))}
              </ul>
              {current ? null : pending(p.code) ? (
                <p>
                  <Badge kind="warn">Requested</Badge> waiting for an operator
                </p>
              ) : (
                <button type="button" class="btn btn-primary" onClick={() => ask(p.code)} disabled={action.busy}>
                  {p.is_contact_sales
                    ? `Contact us about ${p.name}`
                    : p.monthly_price
                      ? `Request ${p.name} at ${money(p.monthly_price, p.currency)}/month`
                      : `Request ${p.name}`}
                </button>
              )}
            </section>
          )
        })}
      </div>
      <Card title="Your requests">
        {requests.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <Table head={["Request", "Made", "Status", "Decided"]}>
            {requests.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.kind === "upgrade"
                    ? `Plan: ${plans.find((p) => p.code === r.plan_code)?.name ?? r.plan_code}${r.monthly_price !== null && r.currency ? ` at ${money(r.monthly_price, r.currency)} a month` : ""}`
                    : `Routing pack: ${fmt(r.pack_calls ?? 0)} calls`}
                </td>
                <td>{formatDate(r.created_at)}</td>
                <td>
                  <Badge kind={r.status === "applied" ? "ok" : r.status === "pending" ? "warn" : "off"}>
                    {r.status}
                  </Badge>
                </td>
                <td>{formatDate(r.decided_at)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </div>
  )
}
