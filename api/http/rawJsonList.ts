/**
 * A list whose items Postgres already wrote as JSON text: the answer splices them in unparsed,
 * so a page of rows never becomes JS objects only to be serialized again. `toJSON` keeps any
 * other serializer correct (it parses), at the old cost.
 */
export class RawJsonList {
  constructor(readonly items: ReadonlyArray<string>) {}
  get length() {
    return this.items.length
  }
  toJSON() {
    return this.items.map((s) => JSON.parse(s) as unknown)
  }
}

/**
 * JSON text of an answer; a `RawJsonList` at its top level (a paged envelope's `data`) is spliced
 * in as written. That key is written first (where the envelope has it), so the splice point is
 * known without searching text that upstream strings helped make.
 */
export const answerJson = (value: unknown): string => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return JSON.stringify(value)
  const fields = value as Record<string, unknown>
  let key: string | undefined
  for (const k in fields) {
    if (fields[k] instanceof RawJsonList) {
      key = k
      break
    }
  }
  if (key === undefined) return JSON.stringify(value)
  const { [key]: list, ...rest } = fields
  const head = `{${JSON.stringify(key)}:[${(list as RawJsonList).items.join(",")}]`
  const tail = JSON.stringify(rest)
  return tail === "{}" ? `${head}}` : `${head},${tail.slice(1)}`
}
