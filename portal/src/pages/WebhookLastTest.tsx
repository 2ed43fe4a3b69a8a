import { formatDate } from "../forms.js"
import { Card } from "../ui.js"

export interface LastTest {
  readonly delivery_id: string
  readonly sent_at: string
  readonly url: string
  readonly request_headers: Readonly<Record<string, string>>
  readonly request_body: string
  readonly delivered: boolean
  readonly status_code: number | null
  readonly response_body: string | null
  readonly latency_ms: number
  readonly error: string | null
}

const pretty = (body: string) => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

/**
 * The subscription's last test delivery, as sent and as the receiver answered, so a subscriber
 * can check their verification against it. The receiver's answer is shown as text only.
 */
export const WebhookLastTest = ({ test }: { test: LastTest | null }) => (
  <Card title="Last test delivery">
    {!test ? (
      <p class="hint">None sent yet: press Send test.</p>
    ) : (
      <div data-testid="last-test">
        <p>
          Sent {formatDate(test.sent_at)} to <code>{test.url}</code>:{" "}
          {test.delivered ? (
            <strong>answered {test.status_code}</strong>
          ) : (
            <strong class="error-text">not delivered ({test.error ?? `HTTP ${test.status_code}`})</strong>
          )}{" "}
          in {test.latency_ms} ms.
        </p>
        <h3>Request headers</h3>
        <dl class="facts" data-testid="last-test-headers">
          {Object.entries(test.request_headers).flatMap(([k, v]) => [
            <dt key={`${k}-name`}>{k}</dt>,
            <dd key={`${k}-value`} class="mono wrap">
              {v}
            </dd>
          ])}
        </dl>
        <h3>Request body</h3>
        <pre class="code" data-testid="last-test-body">
          {pretty(test.request_body)}
        </pre>
        <h3>Your endpoint's answer</h3>
        {test.status_code === null ? (
          <p class="hint">No answer: {test.error}.</p>
        ) : (
          <>
            <p>Status {test.status_code}</p>
            <pre class="code" data-testid="last-test-response">
              {test.response_body ? pretty(test.response_body) : "(empty body)"}
            </pre>
          </>
        )}
      </div>
    )}
  </Card>
)
