import { Either, ParseResult, Schema } from "effect"
import { useState } from "preact/hooks"
import { explain } from "./api.js"
import { useAction } from "./ui.js"

/**
 * Checks a form's values with the same Schema the server decodes the body with: the values, or
 * one message per field.
 */
export const check = <A, I>(
  schema: Schema.Schema<A, I>,
  values: unknown
): { ok: true; value: A } | { ok: false; errors: Record<string, string> } => {
  const r = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })(values)
  if (Either.isRight(r)) return { ok: true, value: r.right }
  const errors: Record<string, string> = {}
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(r.left)) {
    const field = String(issue.path[0] ?? "form")
    errors[field] ??=
      issue._tag === "Missing"
        ? `${field} is required`
        : issue.message.startsWith("Expected")
          ? `${field} is not valid`
          : issue.message
  }
  return { ok: false, errors }
}

/** The named fields of a submitted form as strings. */
export const fieldsOf = (form: HTMLFormElement): Record<string, string> => {
  const out: Record<string, string> = {}
  new FormData(form).forEach((v, k) => {
    if (typeof v === "string") out[k] = v
  })
  return out
}

export const formatDate = (iso: string | null | undefined) =>
  iso
    ? new Date(iso).toLocaleString("en-US", {
        dateStyle: "medium",
        timeStyle: "short",
        hourCycle: "h23",
        timeZone: "UTC"
      }) + " UTC"
    : "—"

export const formatDay = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" }) : "—"

export const fmt = (n: number) => n.toLocaleString("en-US")

/**
 * A form checked with a shared Schema before it is sent: the field errors, the action's busy
 * state and error line, and the submit handler. `extra` adds values that are not fields (a
 * token from the link).
 */
export const useSchemaForm = <S extends Schema.Schema.AnyNoContext>(
  schema: S,
  send: (value: Schema.Schema.Type<S>, form: HTMLFormElement) => Promise<void>,
  extra: Record<string, string> = {}
) => {
  const [errors, setErrors] = useState<Record<string, string>>({})
  const action = useAction()
  const submit = (e: Event) => {
    e.preventDefault()
    const form = e.currentTarget as HTMLFormElement
    const checked = check(schema as Schema.Schema<Schema.Schema.Type<S>, Schema.Schema.Encoded<S>>, {
      ...fieldsOf(form),
      ...extra
    })
    if (!checked.ok) return setErrors(checked.errors)
    setErrors({})
    void action.run(() => send(checked.value, form), explain)
  }
  return { errors, submit, busy: action.busy, error: action.error }
}

export { sentence } from "./text.js"
