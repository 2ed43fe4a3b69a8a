const NEEDS_ESCAPE = /["\\]/

/**
 * A list of names as one text, unit separator between (`string_to_array(x, E'\\x1f')` splits it
 * again in SQL): a column of lists sent as one text array. The separator never stays in a name.
 */
export const unitJoined = (names: ReadonlyArray<string>) => names.map((n) => n.replace(/\u001f/g, " ")).join("\u001f")

type Element = string | number | boolean | null | undefined

/**
 * A Postgres array literal (`{"a","b",NULL,1.5}`) for a column of a batch, sent as one text
 * parameter and cast in SQL (`${arrayLiteral(xs)}::text[]`). node-postgres escapes every
 * element of an array parameter with two regex passes; a batch writer sends tens of thousands
 * of elements per statement, most of which need no escaping.
 *
 * Built with as few strings as it can (docs/BENCHMARKS.md, bench:scale): a column of
 * texts that need no escaping, of numbers, or of NULLs only (most of a batch's columns) is one
 * join; any other goes element by element, joined once. `out +=` per element made a tree of
 * V8 cons strings (about 3,100 bytes of live heap a materialized change across its 33
 * columns, against 400 joined) that lived until the driver flattened it at send time, so
 * every scavenge during a batch's write copied it.
 */
export const arrayLiteral = (values: ReadonlyArray<Element>): string => {
  if (values.length === 0) return "{}"
  let plainTexts = true
  let numbers = true
  let nulls = 0
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (v === null || v === undefined) nulls++
    else if (typeof v === "string") {
      numbers = false
      if (plainTexts && NEEDS_ESCAPE.test(v)) plainTexts = false
    } else plainTexts = false
  }
  if (nulls === values.length) return `{${"NULL,".repeat(values.length - 1)}NULL}`
  if (nulls === 0 && plainTexts) return `{"${values.join(`","`)}"}`
  if (nulls === 0 && numbers) return `{${values.join(",")}}`
  return elementwise(values)
}

const elementwise = (values: ReadonlyArray<Element>) => {
  const parts = new Array<string>(values.length)
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    parts[i] =
      v === null || v === undefined
        ? "NULL"
        : typeof v === "string"
          ? NEEDS_ESCAPE.test(v)
            ? `"${v.replace(/[\\"]/g, "\\$&")}"`
            : `"${v}"`
          : String(v)
  }
  return `{${parts.join(",")}}`
}
