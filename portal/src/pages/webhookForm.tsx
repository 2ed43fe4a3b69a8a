import { CAUSES } from "../../../shared/domain/Cause.js"
import { EVENT_TYPES, SEVERITIES } from "../../../shared/domain/Event.js"
import type { SubscriptionView } from "../../../shared/webhooks/SubscriptionView.js"
import { Field } from "../ui.js"

/** A subscription as the API answers it (never the secret). */
export type Subscription = SubscriptionView

const Checks = ({
  legend,
  name,
  options,
  chosen
}: {
  legend: string
  name: string
  options: ReadonlyArray<string>
  chosen: ReadonlyArray<string>
}) => (
  <fieldset class="checks">
    <legend>
      {legend} <span class="hint">(none ticked = all)</span>
    </legend>
    {options.map((o) => (
      <label key={o}>
        <input type="checkbox" name={name} value={o} defaultChecked={chosen.includes(o)} /> {o.replace(/_/g, " ")}
      </label>
    ))}
  </fieldset>
)

/** The SPEC §6 filters as a form; the server's Schema is the judge of what is valid. */
export const WebhookFields = ({ s }: { s?: Subscription }) => (
  <>
    <Field label="Name" name="name" defaultValue={s?.name ?? ""} placeholder="e.g. dispatch board" />
    <Field
      label="Endpoint URL"
      name="url"
      type="url"
      required
      defaultValue={s?.url ?? ""}
      placeholder="https://hooks.example.com/road-events"
      hint="We POST JSON here, signed with X-Webhook-Signature."
    />
    <Field
      label="Jurisdictions"
      name="jurisdiction"
      required
      defaultValue={s?.jurisdiction.join(", ") ?? ""}
      placeholder="NY, NJ"
      hint="One or more codes, separated by commas."
    />
    <Checks legend="Event types" name="type" options={EVENT_TYPES} chosen={s?.type ?? []} />
    <Checks legend="Severities" name="severity" options={SEVERITIES} chosen={s?.severity ?? []} />
    <Checks legend="Causes" name="cause" options={CAUSES} chosen={s?.cause ?? []} />
    <Field
      label="Sub-types (optional)"
      name="sub_type"
      defaultValue={s?.sub_type.join(", ") ?? ""}
      hint="Separated by commas; empty = all."
    />
    <Field
      label="Batch window in seconds (optional)"
      name="batch_window_seconds"
      type="number"
      min={1}
      max={300}
      defaultValue={s?.batch_window_seconds ?? ""}
      hint="1 to 300 collects changes into one POST; empty sends each change at once."
    />
    <label class="check-line">
      <input type="checkbox" name="dedupe" value="true" defaultChecked={s?.dedupe ?? false} /> One event.created per
      real-world event, even when several agencies report it
    </label>
  </>
)

/** The form's values as the API's subscription body. */
export const webhookBody = (form: HTMLFormElement) => {
  const d = new FormData(form)
  const list = (name: string) => d.getAll(name).map(String)
  const window = String(d.get("batch_window_seconds") ?? "").trim()
  return {
    name: String(d.get("name") ?? "").trim(),
    url: String(d.get("url") ?? "").trim(),
    jurisdiction: String(d.get("jurisdiction") ?? "")
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
    type: list("type"),
    severity: list("severity"),
    cause: list("cause"),
    sub_type: String(d.get("sub_type") ?? "")
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
    batch_window_seconds: window === "" ? null : Number(window),
    dedupe: d.get("dedupe") === "true"
  }
}

export const disabledWhy = (s: Subscription) =>
  s.disabled_reason === "failures"
    ? `Disabled after ${s.consecutive_failures} deliveries in a row failed`
    : s.disabled_reason === "gone"
      ? "Disabled because your endpoint answered 410 Gone"
      : "Disabled by you"
