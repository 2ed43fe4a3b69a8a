import { useEffect, useState } from "preact/hooks"
import { ApiError, call, explain } from "../api.js"
import { formatDate } from "../forms.js"
import { Link, navigate } from "../router.js"
import { Alert, Badge, Card, OneTimeSecret, useAction } from "../ui.js"
import { disabledWhy, type Subscription, webhookBody, WebhookFields } from "./webhookForm.js"

/** Upgrade prompt for plans without webhooks (the API's plan-gate 403 carries the link). */
export const PlanGateNotice = ({ error }: { error: ApiError }) => (
  <Alert kind="info">
    <p>{error.message}.</p>
    <p>
      <Link
        href={
          typeof error.body.upgrade_url === "string"
            ? new URL(error.body.upgrade_url).pathname + new URL(error.body.upgrade_url).search
            : "/billing/upgrade"
        }
        class="btn btn-primary"
      >
        See plans
      </Link>
    </p>
  </Alert>
)

export const WebhooksPage = () => {
  const [subs, setSubs] = useState<ReadonlyArray<Subscription> | null>(null)
  const [gate, setGate] = useState<ApiError | null>(null)
  const [created, setCreated] = useState<(Subscription & { secret: string }) | null>(null)
  const [showForm, setShowForm] = useState(false)
  const action = useAction()
  const load = () =>
    call<{ data: Array<Subscription> }>("GET", "/portal/webhooks").then(
      (r) => setSubs(r.data),
      (e) => {
        if (e instanceof ApiError && e.status === 403 && e.body.code) setGate(e)
        else action.setError(explain(e))
      }
    )
  useEffect(() => void load(), [])
  const create = (e: Event) => {
    e.preventDefault()
    const form = e.currentTarget as HTMLFormElement
    void action.run(async () => {
      setCreated(await call("POST", "/portal/webhooks", webhookBody(form)))
      setShowForm(false)
      await load()
    }, explain)
  }
  return (
    <div>
      <h1>Webhooks</h1>
      <p class="lead">
        We POST a signed JSON body to your endpoint when a matching event is created, changes severity or status, or
        ends.
      </p>
      {gate && <PlanGateNotice error={gate} />}
      {action.error && <Alert kind="error">{action.error}</Alert>}
      {created && (
        <OneTimeSecret
          label={`Signing secret of “${created.name || created.url}”`}
          value={created.secret}
          note="Verify each delivery's X-Webhook-Signature (HMAC-SHA256 of the raw body, hex) with this secret. It is shown only now; you can rotate it later."
        />
      )}
      {!gate && subs !== null && (
        <>
          <Card
            title="Subscriptions"
            actions={
              !showForm && (
                <button type="button" class="btn btn-primary" onClick={() => setShowForm(true)}>
                  New subscription
                </button>
              )
            }
          >
            {subs.length === 0 ? (
              <p>No subscriptions yet.</p>
            ) : (
              <ul class="list">
                {subs.map((s) => (
                  <li key={s.id} class="list-item">
                    <div>
                      <Link href={`/webhooks/${s.id}`} class="strong">
                        {s.name || s.url}
                      </Link>
                      <p class="hint mono">{s.url}</p>
                      <p class="hint">
                        {s.jurisdiction.join(", ")} ·{" "}
                        {s.batch_window_seconds ? `batched every ${s.batch_window_seconds} s` : "immediate"} · since{" "}
                        {formatDate(s.created_at)}
                      </p>
                    </div>
                    <div>
                      {s.enabled ? <Badge kind="ok">Enabled</Badge> : <Badge kind="off">{disabledWhy(s)}</Badge>}
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          {showForm && (
            <Card title="New subscription">
              <form onSubmit={create} class="form" noValidate>
                <WebhookFields />
                <div class="actions">
                  <button class="btn btn-primary" type="submit" disabled={action.busy}>
                    Create subscription
                  </button>
                  <button class="btn" type="button" onClick={() => setShowForm(false)}>
                    Cancel
                  </button>
                </div>
              </form>
            </Card>
          )}
        </>
      )}
      {!gate && subs === null && !action.error && <p role="status">Loading…</p>}
      {created && (
        <p>
          <button type="button" class="btn" onClick={() => navigate(`/webhooks/${created.id}`)}>
            Open “{created.name || created.url}”
          </button>
        </p>
      )}
    </div>
  )
}
