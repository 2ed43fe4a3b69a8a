import { useEffect, useState } from "preact/hooks"
import { KeyForm } from "../../../shared/portal/forms.js"
import { call, explain } from "../api.js"
import { check, fieldsOf, fmt, formatDate, formatDay } from "../forms.js"
import { useSession } from "../session.js"
import { Alert, Badge, Card, Field, OneTimeSecret, Table, useAction } from "../ui.js"
import { TryIt } from "./TryIt.js"

interface ApiKey {
  readonly id: number
  readonly name: string
  readonly key_prefix: string
  readonly is_active: boolean
  readonly allowed_origins: ReadonlyArray<string>
  readonly rate_limit_rpm: number
  readonly created_at: string
  readonly expires_at: string | null
  readonly last_used_at: string | null
}

const statusOf = (k: ApiKey) =>
  !k.is_active ? (
    <Badge kind="off">Revoked</Badge>
  ) : k.expires_at && Date.parse(k.expires_at) <= Date.now() ? (
    <Badge kind="warn">Expired</Badge>
  ) : (
    <Badge kind="ok">Active</Badge>
  )

export const KeysPage = () => {
  const { customer } = useSession()
  const [keys, setKeys] = useState<ReadonlyArray<ApiKey> | null>(null)
  const [created, setCreated] = useState<(ApiKey & { key: string }) | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const action = useAction()
  const load = () =>
    call<{ data: Array<ApiKey> }>("GET", "/portal/keys").then(
      (r) => setKeys(r.data),
      (e) => action.setError(explain(e))
    )
  useEffect(() => void load(), [])

  const create = (e: Event) => {
    e.preventDefault()
    const form = e.currentTarget as HTMLFormElement
    const v = fieldsOf(form)
    const origins = (v.allowed_origins ?? "")
      .split(/[\s,]+/)
      .map((s) => s.trim().replace(/\/$/, ""))
      .filter(Boolean)
    const expires = v.expires_at ? new Date(`${v.expires_at}T23:59:59Z`).toISOString() : null
    const checked = check(KeyForm, { name: v.name, allowed_origins: origins, expires_at: expires })
    if (!checked.ok) return setErrors(checked.errors)
    setErrors({})
    void action.run(async () => {
      setCreated(await call("POST", "/portal/keys", checked.value))
      form.reset()
      await load()
    }, explain)
  }
  const revoke = (k: ApiKey) => {
    if (!confirm(`Revoke “${k.name}” (${k.key_prefix}…)? Programs using it stop working within 15 seconds.`)) return
    void action.run(async () => {
      await call("DELETE", `/portal/keys/${k.id}`)
      await load()
    }, explain)
  }

  return (
    <div>
      <h1>API keys</h1>
      <p class="lead">
        Send a key in the <code>X-API-Key</code> header. We keep only a hash of each key, so a key is shown once, when
        you create it.
      </p>
      {action.error && <Alert kind="error">{action.error}</Alert>}
      {created && (
        <>
          <OneTimeSecret
            label={`Your new key “${created.name}”`}
            value={created.key}
            note="Copy it now and keep it somewhere safe: it is not shown again. If you lose it, create a new one and revoke this one."
          />
          <TryIt apiKey={created.key} />
        </>
      )}
      <Card title="Create a key">
        {customer && !customer.email_verified ? (
          <Alert kind="warning">Confirm your email address first: follow the link we mailed to {customer.email}.</Alert>
        ) : (
          <form onSubmit={create} noValidate class="form form-row">
            <Field label="Name" name="name" required placeholder="e.g. production server" error={errors.name} />
            <div class="field">
              <label for="f-allowed_origins">Allowed browser origins (optional)</label>
              <textarea
                id="f-allowed_origins"
                name="allowed_origins"
                rows={2}
                placeholder="https://app.example.com"
                aria-describedby="h-origins"
              ></textarea>
              <p class="hint" id="h-origins">
                One per line. When set, browsers on other sites are refused; servers are not affected.
              </p>
              {errors.allowed_origins && <p class="error-text">{errors.allowed_origins}</p>}
            </div>
            <Field
              label="Expires on (optional)"
              name="expires_at"
              type="date"
              error={errors.expires_at}
              hint="The key stops working at the end of that day (UTC)."
            />
            <button class="btn btn-primary" type="submit" disabled={action.busy}>
              Create key
            </button>
          </form>
        )}
      </Card>
      <Card title="Your keys">
        {keys === null ? (
          <p role="status">Loading…</p>
        ) : keys.length === 0 ? (
          <p>No keys yet.</p>
        ) : (
          <Table
            head={["Name", "Key", "Status", "Limit", "Origins", "Created", "Expires", "Last used", ""]}
            wide
            testId="keys"
          >
            {keys.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td class="mono">{k.key_prefix}…</td>
                <td>{statusOf(k)}</td>
                <td>{fmt(k.rate_limit_rpm)}/min</td>
                <td>{k.allowed_origins.length ? k.allowed_origins.join(", ") : "any"}</td>
                <td>{formatDay(k.created_at)}</td>
                <td>{k.expires_at ? formatDay(k.expires_at) : "never"}</td>
                <td>{k.last_used_at ? formatDate(k.last_used_at) : "never"}</td>
                <td>
                  {k.is_active && (
                    <button
                      type="button"
                      class="btn btn-danger btn-small"
                      onClick={() => revoke(k)}
                      aria-label={`Revoke ${k.name}`}
                    >
                      Revoke
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
