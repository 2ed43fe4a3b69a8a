import { useEffect, useState } from "preact/hooks"
import { call, explain } from "../api.js"
import { formatDate } from "../forms.js"
import { Link, navigate } from "../router.js"
import { Alert, Badge, Card, OneTimeSecret, Table, useAction } from "../ui.js"
import { disabledWhy, type Subscription, webhookBody, WebhookFields } from "./webhookForm.js"
import { type LastTest, WebhookLastTest } from "./WebhookLastTest.js"

interface Attempt {
  readonly attempt: number
  readonly started_at: string
  readonly status_code: number | null
  readonly error: string | null
  readonly latency_ms: number
}
interface Delivery {
  readonly id: string
  readonly event: string
  readonly status: "pending" | "succeeded" | "dead"
  readonly attempts: number
  readonly created_at: string
  readonly next_attempt_at: string | null
  readonly last_status_code: number | null
  readonly last_error: string | null
  readonly history: ReadonlyArray<Attempt>
}

const statusBadge = (d: Delivery) =>
  d.status === "succeeded" ? (
    <Badge kind="ok">Delivered</Badge>
  ) : d.status === "dead" ? (
    <Badge kind="off">Failed</Badge>
  ) : (
    <Badge kind="warn">Retrying</Badge>
  )

/** One subscription: its settings, Test, secret rotation, re-enabling, and the delivery log with replay. */
export const WebhookPage = ({ id }: { id: string }) => {
  const [sub, setSub] = useState<Subscription | null>(null)
  const [deliveries, setDeliveries] = useState<ReadonlyArray<Delivery>>([])
  const [total, setTotal] = useState(0)
  const [message, setMessage] = useState<{ kind: "success" | "error" | "info"; text: string } | null>(null)
  const [secret, setSecret] = useState<string | null>(null)
  const [editing, setEditing] = useState(false)
  const [lastTest, setLastTest] = useState<LastTest | null>(null)
  const action = useAction()
  const base = `/portal/webhooks/${encodeURIComponent(id)}`
  const load = async () => {
    const [s, d, t] = await Promise.all([
      call<Subscription>("GET", base),
      call<{ data: Array<Delivery>; total: number }>("GET", `${base}/deliveries?limit=50`),
      call<{ last_test: LastTest | null }>("GET", `${base}/test`)
    ])
    setSub(s)
    setLastTest(t.last_test)
    setDeliveries(d.data)
    setTotal(d.total)
  }
  useEffect(() => void load().catch((e) => action.setError(explain(e))), [id])
  const act = (f: () => Promise<void>) => {
    setMessage(null)
    void action.run(f, explain)
  }
  const test = () =>
    act(async () => {
      const r = await call<LastTest>("POST", `${base}/test`)
      setLastTest(r)
      setMessage(
        r.delivered
          ? {
              kind: "success",
              text: `Test delivered: your endpoint answered ${r.status_code} in ${r.latency_ms} ms. Below is what was sent and what it answered; test deliveries are not kept in the log.`
            }
          : {
              kind: "error",
              text: `Test not delivered: ${r.error ?? `your endpoint answered ${r.status_code}`} (${r.latency_ms} ms).`
            }
      )
    })
  const setEnabled = (enabled: boolean) =>
    act(async () => {
      setSub(await call("PATCH", base, { enabled }))
      setMessage({
        kind: "success",
        text: enabled ? "Subscription enabled: new changes are delivered again." : "Subscription disabled."
      })
    })
  const rotate = () =>
    act(async () => {
      if (!confirm("Rotate the signing secret? Deliveries are signed with the new secret from now on.")) return
      setSecret((await call<{ secret: string }>("POST", `${base}/rotate-secret`)).secret)
      await load()
    })
  const remove = () =>
    act(async () => {
      if (!confirm("Delete this subscription and its pending deliveries?")) return
      await call("DELETE", base)
      navigate("/webhooks")
    })
  const save = (e: Event) => {
    e.preventDefault()
    const form = e.currentTarget as HTMLFormElement
    act(async () => {
      setSub(await call("PATCH", base, webhookBody(form)))
      setEditing(false)
      setMessage({ kind: "success", text: "Saved." })
    })
  }
  const replay = (d: Delivery) =>
    act(async () => {
      await call("POST", `${base}/deliveries/${encodeURIComponent(d.id)}/replay`)
      setMessage({ kind: "info", text: `Delivery ${d.id} is queued to be sent again.` })
      await load()
    })

  if (!sub)
    return (
      <div>
        <p>
          <Link href="/webhooks">← Webhooks</Link>
        </p>
        {action.error ? <Alert kind="error">{action.error}</Alert> : <p role="status">Loading…</p>}
      </div>
    )
  return (
    <div>
      <p>
        <Link href="/webhooks">← Webhooks</Link>
      </p>
      <h1>{sub.name || sub.url}</h1>
      {!sub.enabled && (
        <Alert kind="warning">
          <p>
            <strong>{disabledWhy(sub)}</strong>
            {sub.disabled_at ? ` on ${formatDate(sub.disabled_at)}` : ""}. Nothing is delivered while it is disabled.
          </p>
          <p>
            <button type="button" class="btn btn-primary" onClick={() => setEnabled(true)} disabled={action.busy}>
              Re-enable
            </button>
          </p>
        </Alert>
      )}
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      {action.error && <Alert kind="error">{action.error}</Alert>}
      {secret && (
        <OneTimeSecret
          label="New signing secret"
          value={secret}
          note="Shown only now. Update your receiver to verify with it."
        />
      )}
      <Card
        title="Subscription"
        actions={
          <div class="actions">
            <button type="button" class="btn btn-primary" onClick={test} disabled={action.busy}>
              Send test
            </button>
            {!editing && (
              <button type="button" class="btn" onClick={() => setEditing(true)}>
                Edit
              </button>
            )}
            <button type="button" class="btn" onClick={rotate} disabled={action.busy}>
              Rotate secret
            </button>
            {sub.enabled && (
              <button type="button" class="btn" onClick={() => setEnabled(false)} disabled={action.busy}>
                Disable
              </button>
            )}
            <button type="button" class="btn btn-danger" onClick={remove} disabled={action.busy}>
              Delete
            </button>
          </div>
        }
      >
        {editing ? (
          <form onSubmit={save} class="form" noValidate>
            <WebhookFields s={sub} />
            <div class="actions">
              <button class="btn btn-primary" type="submit">
                Save
              </button>
              <button class="btn" type="button" onClick={() => setEditing(false)}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              {sub.enabled ? <Badge kind="ok">Enabled</Badge> : <Badge kind="off">Disabled</Badge>}{" "}
              {sub.consecutive_failures > 0 && `${sub.consecutive_failures} failed in a row`}
            </dd>
            <dt>Endpoint</dt>
            <dd class="mono">{sub.url}</dd>
            <dt>Jurisdictions</dt>
            <dd>{sub.jurisdiction.join(", ")}</dd>
            <dt>Types</dt>
            <dd>{sub.type.join(", ") || "all"}</dd>
            <dt>Severities</dt>
            <dd>{sub.severity.join(", ") || "all"}</dd>
            <dt>Causes</dt>
            <dd>{sub.cause.join(", ") || "all"}</dd>
            <dt>Sub-types</dt>
            <dd>{sub.sub_type.join(", ") || "all"}</dd>
            <dt>Delivery</dt>
            <dd>
              {sub.batch_window_seconds
                ? `batched every ${sub.batch_window_seconds} s (up to 100 events a POST)`
                : "each change at once"}
            </dd>
            <dt>Secret</dt>
            <dd class="mono">{sub.secret_hint}</dd>
            <dt>Id</dt>
            <dd class="mono">{sub.id}</dd>
          </dl>
        )}
      </Card>
      <WebhookLastTest test={lastTest} />
      <Card
        title={`Deliveries (${total})`}
        actions={
          <button type="button" class="btn" onClick={() => act(load)}>
            Refresh
          </button>
        }
      >
        <p class="hint">
          Failed attempts are retried after 10 s, 30 s and 90 s; after 10 deliveries fail in a row the subscription is
          disabled.
        </p>
        {deliveries.length === 0 ? (
          <p>No deliveries yet.</p>
        ) : (
          <Table head={["Delivery", "Event", "Status", "Attempts", "Made", "Next retry", ""]} testId="deliveries" wide>
            {deliveries.map((d) => (
              <tr key={d.id}>
                <td class="mono">{d.id}</td>
                <td>{d.event}</td>
                <td>{statusBadge(d)}</td>
                <td>
                  <details>
                    <summary>
                      {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
                    </summary>
                    <ul class="attempts">
                      {d.history.map((a) => (
                        <li key={a.attempt}>
                          #{a.attempt} {formatDate(a.started_at)}:{" "}
                          {a.status_code !== null ? `HTTP ${a.status_code}` : "no answer"} in {a.latency_ms} ms
                          {a.error && a.error !== `HTTP ${a.status_code}` ? ` (${a.error})` : ""}
                        </li>
                      ))}
                    </ul>
                  </details>
                </td>
                <td>{formatDate(d.created_at)}</td>
                <td>{d.next_attempt_at ? formatDate(d.next_attempt_at) : "—"}</td>
                <td>
                  {d.status !== "pending" && (
                    <button type="button" class="btn btn-small" onClick={() => replay(d)} aria-label={`Replay ${d.id}`}>
                      Replay
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </div>
  )
}
