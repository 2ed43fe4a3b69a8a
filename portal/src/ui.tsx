import type { ComponentChildren, JSX } from "preact"
import { useState } from "preact/hooks"

/** Labelled input with its error under it (read by screen readers through aria-describedby). */
export const Field = ({
  label,
  name,
  error,
  hint,
  ...input
}: {
  label: string
  name: string
  error?: string | undefined
  hint?: string
} & JSX.InputHTMLAttributes<HTMLInputElement>) => (
  <div class="field">
    <label for={`f-${name}`}>{label}</label>
    <input
      id={`f-${name}`}
      name={name}
      aria-invalid={error ? "true" : undefined}
      aria-describedby={error ? `e-${name}` : hint ? `h-${name}` : undefined}
      {...input}
    />
    {hint && !error && (
      <p class="hint" id={`h-${name}`}>
        {hint}
      </p>
    )}
    {error && (
      <p class="error-text" id={`e-${name}`}>
        {error}
      </p>
    )}
  </div>
)

export const Alert = ({
  kind,
  children
}: {
  kind: "error" | "info" | "success" | "warning"
  children: ComponentChildren
}) => (
  <div class={`alert alert-${kind}`} role={kind === "error" ? "alert" : "status"}>
    {children}
  </div>
)

export const Card = ({
  title,
  children,
  actions
}: {
  title: string
  children: ComponentChildren
  actions?: ComponentChildren
}) => (
  <section class="card" aria-label={title}>
    <div class="card-head">
      <h2>{title}</h2>
      {actions}
    </div>
    {children}
  </section>
)

export const Badge = ({ kind, children }: { kind: "ok" | "off" | "warn" | "muted"; children: ComponentChildren }) => (
  <span class={`badge badge-${kind}`}>{children}</span>
)

/** A secret shown once, with a copy button; the page never shows it again. */
export const OneTimeSecret = ({ label, value, note }: { label: string; value: string; note: string }) => {
  const [copied, setCopied] = useState(false)
  return (
    <div class="secret" role="status">
      <p class="secret-label">{label}</p>
      <div class="secret-row">
        <input
          readOnly
          value={value}
          aria-label={label}
          class="mono"
          data-secret
          onFocus={(e) => (e.target as HTMLInputElement).select()}
        />
        <button
          type="button"
          class="btn"
          onClick={async () => {
            await navigator.clipboard?.writeText(value).catch(() => undefined)
            setCopied(true)
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <p class="hint">{note}</p>
    </div>
  )
}

/** Runs an action with a busy state and an error line. */
export const useAction = () => {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const run = async (f: () => Promise<void>, explain: (e: unknown) => string) => {
    setBusy(true)
    setError(null)
    try {
      await f()
    } catch (e) {
      setError(explain(e))
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, setError, run }
}

/**
 * A table that scrolls sideways on a phone (a wide one keeps its columns readable rather than squeezed), or with
 * `stack` turns each row into a card there, each cell named by its `data-label`; an empty heading is an actions
 * column, named for screen readers.
 */
export const Table = ({
  head,
  children,
  testId,
  wide,
  stack,
  label
}: {
  head: ReadonlyArray<string>
  children: ComponentChildren
  testId?: string
  wide?: boolean
  stack?: boolean
  label?: string
}) => (
  // a wide table may scroll sideways: then its box takes keyboard focus, so arrow keys reach the hidden columns
  <div class="table-wrap" {...(wide ? { tabIndex: 0, role: "region", "aria-label": label ?? "Table" } : {})}>
    <table data-testid={testId} class={[wide ? "wide" : "", stack ? "stack" : ""].join(" ").trim() || undefined}>
      <thead>
        <tr>
          {head.map((h, i) => (
            <th scope="col" key={i}>
              {h === "" ? <span class="sr-only">Actions</span> : h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </div>
)
