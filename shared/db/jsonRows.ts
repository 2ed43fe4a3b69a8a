/**
 * Rows written as JSON text by Postgres, for lists answered without parsing each row into JS
 * objects and serializing it again. The text matches what the driver's path gives after
 * JSON.stringify, field for field: timestamps as `isoTimestamp` writes them (UTC, milliseconds
 * truncated, `Z`), numbers and booleans as themselves, jsonb as its own text (whitespace aside).
 */

/** timestamptz as `Date.toISOString` writes it; to_char's MS truncates, as isoTimestamp does. */
export const isoTextSql = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * `row_to_json(x)::text` over a LATERAL projection of `alias`'s columns `fields` (their order is
 * the JSON's), timestamps rewritten. row_to_json writes no whitespace between fields.
 */
export const jsonRowSelect = (alias: string, fields: ReadonlyArray<string>, timestamps: ReadonlySet<string>) => {
  const projection = fields.map((f) => (timestamps.has(f) ? `${isoTextSql(`${alias}.${f}`)} AS ${f}` : `${alias}.${f}`)).join(", ")
  return { json: "row_to_json(x)::text", lateral: `CROSS JOIN LATERAL (SELECT ${projection}) x` }
}

/**
 * How a list's rows come back: as objects (for answers built from them, GeoJSON), or as JSON
 * text Postgres wrote (`_json`, with the bookkeeping columns beside it), spliced into the answer unparsed.
 */
export type RowForm = "objects" | "json"
