import { Either, ParseResult, Schema } from "effect"

/**
 * Checks a form's values with the same Schema the server decodes the body with: the values, or
 * one message per field.
 */
export const check = <A, I>(schema: Schema.Schema<A, I>, values: unknown): { ok: true; value: A } | { ok: false; errors: Record<string, string> } => {
  const r = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })(values)
  if (Either.isRight(r)) return { ok: true, value: r.right }
  const errors: Record<string, string> = {}
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(r.left)) {
    const field = String(issue.path[0] ?? "form")
    errors[field] ??= issue._tag === "Missing" ? `${field} is required` : issue.message.startsWith("Expected") ? `${field} is not valid` : issue.message
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
  iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC" : "—"

export const formatDay = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" }) : "—"

export const fmt = (n: number) => n.toLocaleString("en-US")
