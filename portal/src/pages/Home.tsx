import { useState } from "preact/hooks"
import { call, explain } from "../api.js"
import { formatDay } from "../forms.js"
import { Link } from "../router.js"
import { useSession } from "../session.js"
import { Alert, Card } from "../ui.js"

const daysLeft = (iso: string) => Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 86_400_000))

const Landing = () => (
  <div class="landing">
    <h1>Road events and road features for the US and Canada, in one API</h1>
    <p class="lead">
      Incidents, closures and work zones from state and provincial 511 feeds, with their history; cameras, weather
      stations, truck parking and bridge clearances; truck routing that avoids what was announced a minute ago; signed
      webhooks.
    </p>
    <div class="actions">
      <Link href="/signup" class="btn btn-primary">
        Start a 14-day free trial
      </Link>
      <Link href="/login" class="btn">
        Log in
      </Link>
    </div>
    <ul class="ticks">
      <li>No card needed for the trial</li>
      <li>API keys shown once and stored hashed</li>
      <li>Plans from one jurisdiction to the whole continent</li>
    </ul>
  </div>
)

export const HomePage = () => {
  const { customer } = useSession()
  const [sent, setSent] = useState<string | null>(null)
  if (!customer) return <Landing />
  const trial = customer.plan_code === "free" && customer.trial_ends_at
  const resend = async () => {
    try {
      const r = await call<{ mail_sent: boolean }>("POST", "/portal/verify/resend")
      setSent(
        r.mail_sent
          ? `We sent a new link to ${customer.email}.`
          : "The mail could not be sent just now; try again in a minute."
      )
    } catch (e) {
      setSent(explain(e))
    }
  }
  return (
    <div>
      <h1>Welcome, {customer.name}</h1>
      {!customer.email_verified && (
        <Alert kind="warning">
          <p>
            Confirm your email address: we sent a link to <strong>{customer.email}</strong>. You can create API keys
            once it is confirmed.
          </p>
          <p>
            <button type="button" class="btn" onClick={resend}>
              Send the link again
            </button>{" "}
            {sent && <span>{sent}</span>}
          </p>
        </Alert>
      )}
      <div class="grid">
        <Card title="Your plan">
          <p class="big">{customer.plan_name}</p>
          {trial ? (
            <p>
              Free trial: ends <strong>{formatDay(customer.trial_ends_at)}</strong> ({daysLeft(customer.trial_ends_at!)}{" "}
              days left).
            </p>
          ) : (
            <p>
              Subscription: {customer.subscription_status}
              {customer.subscription_ends_at ? `, until ${formatDay(customer.subscription_ends_at)}` : ""}.
            </p>
          )}
          <p>
            <Link href="/billing/upgrade">Compare plans</Link>
          </p>
        </Card>
        <Card title="Get started">
          <ol class="steps">
            <li>
              <Link href="/keys">Create an API key</Link>
            </li>
            <li>
              Call the API with it in the <code>X-API-Key</code> header:
            </li>
          </ol>
          <pre class="code" tabIndex={0} aria-label="Example request">
            <code>
              curl -H "X-API-Key: $KEY" \{"\n"} "{location.origin}/api/v1/events?jurisdiction=NY"
            </code>
          </pre>
          <p>
            <a href="/docs/">API reference</a>
          </p>
        </Card>
        <Card title="Account">
          <dl class="facts">
            <dt>Email</dt>
            <dd>
              {customer.email} {customer.email_verified ? "(confirmed)" : "(not confirmed)"}
            </dd>
            <dt>Company</dt>
            <dd>{customer.company || "—"}</dd>
            <dt>Member since</dt>
            <dd>{formatDay(customer.created_at)}</dd>
          </dl>
        </Card>
      </div>
    </div>
  )
}
