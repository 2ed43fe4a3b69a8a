import { type Schema, SchemaAST } from "effect"
import { headerText, JURISDICTION_WARNING_HEADER } from "../coverageWarning.js"
import type { ApiWarning } from "../warnings.js"
import type { ResponseHeaders } from "./ResponseHeaders.js"

/** Where an answer carries warnings: its own `warnings` field, the warning headers, or nowhere. */
export type WarningsChannel = "body" | "header" | "none"

const hasWarningsField = (ast: SchemaAST.AST): boolean => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures.some((p) => p.name === "warnings")
    case "Refinement":
      return hasWarningsField(ast.from)
    case "Transformation":
      return hasWarningsField(ast.to)
    case "Suspend":
      return hasWarningsField(ast.f())
    default:
      return false
  }
}

/**
 * The channel a route's success answer offers: its `warnings` field; else the warning headers
 * (`X-Warnings`, `X-Jurisdiction-Warning`) where it documents them or takes parameters of its
 * own; else none, and an unknown parameter is a 400 (an endpoint that takes no parameters).
 */
export const warningsChannel = (
  ok: { readonly schema?: Schema.Schema.Any; readonly headers?: ReadonlyArray<string> } | undefined,
  takesParameters: boolean
): WarningsChannel =>
  ok?.schema && hasWarningsField(ok.schema.ast)
    ? "body"
    : takesParameters || ok?.headers?.some((h) => h === "warnings" || h === "jurisdictionWarning")
      ? "header"
      : "none"

const WARNINGS_HEADER = "X-Warnings"

/**
 * The handler's headers with the warning headers held back, so the notes on unknown parameters
 * join what the handler reported instead of replacing it; `finish` puts them on the answer.
 */
export const withUnknownParameters = (headers: ResponseHeaders, notes: ReadonlyArray<ApiWarning>) => {
  let json: string | undefined
  let text: string | undefined
  const held: ResponseHeaders = {
    set: (name, value) => {
      if (name === WARNINGS_HEADER) json = value
      else if (name === JURISDICTION_WARNING_HEADER) text = value
      else headers.set(name, value)
    }
  }
  const finish = (answer: unknown, channel: WarningsChannel) => {
    const plain = typeof answer === "object" && answer !== null && !Array.isArray(answer)
    const proto = plain ? Object.getPrototypeOf(answer) : null
    if (channel === "body" && (proto === Object.prototype || proto === null)) {
      const own = (answer as { warnings?: ReadonlyArray<ApiWarning> }).warnings ?? []
      if (json !== undefined) headers.set(WARNINGS_HEADER, json)
      if (text !== undefined) headers.set(JURISDICTION_WARNING_HEADER, text)
      return { ...(answer as object), warnings: [...own, ...notes] }
    }
    let prior: Array<ApiWarning> = []
    try {
      prior = json === undefined ? [] : (JSON.parse(json) as Array<ApiWarning>)
    } catch {
      prior = []
    }
    headers.set(WARNINGS_HEADER, headerText(JSON.stringify([...prior, ...notes])))
    headers.set(
      JURISDICTION_WARNING_HEADER,
      headerText([text, ...notes.map((n) => n.message)].filter((t) => t !== undefined).join("; "))
    )
    return answer
  }
  return { headers: held, finish }
}
