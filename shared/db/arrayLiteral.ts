const NEEDS_ESCAPE = /["\\]/

/**
 * A Postgres array literal (`{"a","b",NULL,1.5}`) for a column of a batch, sent as one text
 * parameter and cast in SQL (`${arrayLiteral(xs)}::text[]`). node-postgres escapes every
 * element of an array parameter with two regex passes; a batch writer sends tens of thousands
 * of elements per statement, most of which need no escaping.
 */
export const arrayLiteral = (values: ReadonlyArray<string | number | boolean | null | undefined>): string => {
  let out = "{"
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ","
    const v = values[i]
    if (v === null || v === undefined) out += "NULL"
    else if (typeof v === "string") out += NEEDS_ESCAPE.test(v) ? `"${v.replace(/[\\"]/g, "\\$&")}"` : `"${v}"`
    else out += String(v)
  }
  return out + "}"
}
