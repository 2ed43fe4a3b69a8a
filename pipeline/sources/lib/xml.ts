import { Either } from "effect"
import { XMLParser, XMLValidator } from "fast-xml-parser"

/**
 * XML payloads (TMDD, iCone) as plain objects, read with fast-xml-parser: namespace prefixes
 * dropped (`mes:fEUMsg` → `fEUMsg`), attributes kept under `@_name`, every value left as
 * the text it was (`0907000000` is a time, not a number), an element that appears once not
 * told apart from a list of one: `many` reads both.
 */
const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true
})

/** A document's objects, or why the text is not XML. */
export const readXml = (payload: unknown): Either.Either<Record<string, unknown>, string> => {
  if (typeof payload !== "string") return Either.left("payload is not an XML document")
  const valid = XMLValidator.validate(payload)
  if (valid !== true) return Either.left(`payload is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`)
  return Either.right(parser.parse(payload) as Record<string, unknown>)
}

/** An element that may appear once or many times (or not at all) as a list. */
export const many = (x: unknown): ReadonlyArray<unknown> =>
  x === undefined || x === null || x === "" ? [] : Array.isArray(x) ? x : [x]

/** The text of a leaf element, or null when it is missing or empty. */
export const text = (x: unknown): string | null => {
  if (typeof x === "string") return x.trim() === "" ? null : x.trim()
  if (typeof x === "object" && x !== null && "#text" in x) return text((x as Record<string, unknown>)["#text"])
  return null
}

/** Descends through nested elements by name, taking the first of any repeated one. */
export const at = (x: unknown, ...path: ReadonlyArray<string>): unknown => {
  let cur = x
  for (const key of path) {
    const one = Array.isArray(cur) ? cur[0] : cur
    if (typeof one !== "object" || one === null) return undefined
    cur = (one as Record<string, unknown>)[key]
  }
  return cur
}
