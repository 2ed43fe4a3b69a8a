import { Effect, ParseResult, type Schema } from "effect"
import { BadRequest } from "./HttpError.js"
import { figure } from "./QueryParams.js"

/** Longest raw value of any one query parameter. */
const MAX_PARAM_CHARS = 2000

/**
 * Raw query → one trimmed string per name: a repeated parameter is ambiguous, so the last one
 * counts (as in most frameworks); an empty value is absent.
 */
export const rawQuery = (query: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>) =>
  Effect.suspend(() => {
    const out: Record<string, string> = {}
    for (const [name, v] of Object.entries(query)) {
      const s = Array.isArray(v) ? v[v.length - 1] : (v as string | undefined)
      if (s === undefined) continue
      if (s.length > MAX_PARAM_CHARS)
        return Effect.fail(
          new BadRequest({
            message: `${name.slice(0, 60)} is too long (at most ${figure(MAX_PARAM_CHARS)} characters)`
          })
        )
      const t = s.trim()
      if (t !== "") out[name] = t
    }
    return Effect.succeed(out)
  })

const EXPECTED = /^Expected (.+?), actual/s

/** What a failed value should have been, in words, from a validator's "Expected …" text. */
const wanted = (message: string) => {
  const m = EXPECTED.exec(message)
  if (!m) return message
  const t = m[1].replace(/\s+/g, " ")
  if (t === "string") return "must be text"
  if (t === "number" || t === "a number") return "must be a number"
  if (t === "boolean") return "must be true or false"
  if (t.startsWith("ReadonlyArray") || t.startsWith("Array")) return "must be a list"
  // a struct, or a named Schema (its identifier means nothing to a caller)
  if (t.startsWith("{") || /^[A-Z]\w*$/.test(t)) return "must be a JSON object"
  return `must be ${t.replace(/ \| /g, " or ")}`
}

/**
 * A decoding failure → one sentence per parameter, in user terms: an annotation's own message
 * where the schema has one, "is required" for a missing one, never a raw "Expected null, actual
 * 301". At most three parameters are named.
 */
export const friendlyIssues = (error: ParseResult.ParseError, where: string): string => {
  const byPath = new Map<string, Array<{ tag: string; message: string }>>()
  for (const i of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const key = i.path.map(String).join(".")
    byPath.set(key, [...(byPath.get(key) ?? []), { tag: i._tag, message: i.message.replace(/\s+/g, " ") }])
  }
  return [...byPath]
    .slice(0, 3)
    .map(([path, issues]) => {
      const own = issues.find((i) => !EXPECTED.test(i.message) && i.tag !== "Missing" && i.tag !== "Unexpected")
      const text = own
        ? own.message
        : issues.some((i) => i.tag === "Missing")
          ? "is required"
          : issues.some((i) => i.tag === "Unexpected")
            ? "is not a field this endpoint takes"
            : wanted(issues.find((i) => !/^Expected (undefined|null),/.test(i.message))?.message ?? issues[0].message)
      const name = path === "" ? where : path
      return text.startsWith(name) ? text : `${name} ${text}`
    })
    .join("; ")
}

/** Decodes one part of a request with its Schema; a failure is a 400 naming the parameter. */
export const decodePart = <A, R>(
  schema: Schema.Schema<A, any, R> | undefined,
  value: unknown,
  where: string,
  excess: "ignore" | "error"
) =>
  schema === undefined
    ? Effect.succeed(value as A)
    : ParseResult.decodeUnknown(schema, { errors: "all", onExcessProperty: excess })(value).pipe(
        Effect.mapError(
          (e) =>
            new BadRequest({ message: friendlyIssues(new ParseResult.ParseError({ issue: e }), where).slice(0, 1000) })
        )
      )
