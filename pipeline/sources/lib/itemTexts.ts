/**
 * The source text of each record of a JSON payload, so a record's raw fingerprint can hash the
 * text it arrived as instead of serializing the parsed record again (JSON.stringify was the
 * largest single cost of a cold poll; bench:ingest). No JSON library exposes value positions at
 * JSON.parse's speed, so this is a small scanner over text that JSON.parse has already accepted:
 * it only has to find where values end, never to check the grammar.
 */

const QUOTE = 34
const BACKSLASH = 92
const COMMA = 44
const COLON = 58
const OPEN_BRACE = 123
const CLOSE_BRACE = 125
const OPEN_BRACKET = 91
const CLOSE_BRACKET = 93

class NotScannable extends Error {}

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9

const skipSpace = (t: string, i: number) => {
  while (isSpace(t.charCodeAt(i))) i++
  return i
}

const expect = (t: string, i: number, c: number) => {
  if (t.charCodeAt(i) !== c) throw new NotScannable()
}

/** Just past the string that opens at `i`: the next quote not escaped by an odd run of backslashes. */
const stringEnd = (t: string, i: number) => {
  let from = i + 1
  for (;;) {
    const q = t.indexOf('"', from)
    if (q < 0) throw new NotScannable()
    let b = q - 1
    while (t.charCodeAt(b) === BACKSLASH) b--
    if ((q - 1 - b) % 2 === 0) return q + 1
    from = q + 1
  }
}

/** Just past the value that starts at `i`. */
const valueEnd = (t: string, i: number) => {
  const c = t.charCodeAt(i)
  if (c === QUOTE) return stringEnd(t, i)
  const n = t.length
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0
    let j = i
    while (j < n) {
      const d = t.charCodeAt(j)
      if (d === QUOTE) {
        j = stringEnd(t, j)
        continue
      }
      if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        depth--
        if (depth === 0) return j + 1
      }
      j++
    }
    throw new NotScannable()
  }
  // a number, true, false or null runs to the next delimiter
  let j = i
  while (j < n) {
    const d = t.charCodeAt(j)
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break
    j++
  }
  if (j === i) throw new NotScannable()
  return j
}

const keyOf = (t: string, start: number, end: number) => {
  const raw = t.slice(start + 1, end - 1)
  return raw.includes("\\") ? (JSON.parse(t.slice(start, end)) as string) : raw
}

interface Found {
  texts: Array<string> | undefined
}

/**
 * Scans the value at `i` down `path` (object keys) and keeps the element texts of the array at its
 * end in `found`; returns where the value ends. A repeated key is walked each time and the last
 * one's texts are kept, as JSON.parse keeps the last value.
 */
const walk = (t: string, i: number, path: ReadonlyArray<string>, k: number, found: Found): number => {
  if (k === path.length) {
    const out: Array<string> = []
    const end = elementTexts(t, i, out)
    found.texts = out
    return end
  }
  expect(t, i, OPEN_BRACE)
  i = skipSpace(t, i + 1)
  if (t.charCodeAt(i) === CLOSE_BRACE) return i + 1
  for (;;) {
    expect(t, i, QUOTE)
    const keyEnd = stringEnd(t, i)
    const name = keyOf(t, i, keyEnd)
    i = skipSpace(t, keyEnd)
    expect(t, i, COLON)
    const start = skipSpace(t, i + 1)
    // a repeated key may hold something else before the value JSON.parse kept: skipped like any other
    const opens = k + 1 === path.length ? OPEN_BRACKET : OPEN_BRACE
    const follow = name === path[k] && t.charCodeAt(start) === opens
    i = skipSpace(t, follow ? walk(t, start, path, k + 1, found) : valueEnd(t, start))
    if (t.charCodeAt(i) === CLOSE_BRACE) return i + 1
    expect(t, i, COMMA)
    i = skipSpace(t, i + 1)
  }
}

/** Appends the text of each element of the array at `i` to `out`; returns where the array ends. */
const elementTexts = (t: string, i: number, out: Array<string>): number => {
  expect(t, i, OPEN_BRACKET)
  i = skipSpace(t, i + 1)
  if (t.charCodeAt(i) === CLOSE_BRACKET) return i + 1
  for (;;) {
    const end = valueEnd(t, i)
    out.push(t.slice(i, end))
    i = skipSpace(t, end)
    if (t.charCodeAt(i) === CLOSE_BRACKET) return i + 1
    expect(t, i, COMMA)
    i = skipSpace(t, i + 1)
  }
}

/** The keys from `payload` down to the array that holds exactly `items` (the same values, in order), if any. */
const pathTo = (payload: unknown, items: ReadonlyArray<unknown>): ReadonlyArray<string> | undefined => {
  const holds = (v: unknown) => Array.isArray(v) && v.length === items.length && v.every((x, k) => x === items[k])
  const search = (v: unknown, depth: number): ReadonlyArray<string> | undefined => {
    if (holds(v)) return []
    if (depth === 0 || typeof v !== "object" || v === null || Array.isArray(v)) return undefined
    for (const [k, child] of Object.entries(v)) {
      const below = search(child, depth - 1)
      if (below) return [k, ...below]
    }
    return undefined
  }
  return search(payload, 4)
}

/**
 * The text each of `items` was parsed from, when `payload` is `JSON.parse(text)` and `items` is
 * an array inside it, up to four keys deep (its elements themselves, not copies); undefined when
 * that is not so (items the adapter built, an XML payload, several documents), and the caller
 * serializes the records instead.
 */
export const itemTexts = (
  text: string,
  payload: unknown,
  items: ReadonlyArray<unknown>
): ReadonlyArray<string> | undefined => {
  if (items.length === 0) return undefined
  const path = pathTo(payload, items)
  if (path === undefined) return undefined
  try {
    const found: Found = { texts: undefined }
    walk(text, skipSpace(text, 0), path, 0, found)
    return found.texts?.length === items.length ? found.texts : undefined
  } catch (e) {
    if (e instanceof NotScannable || e instanceof SyntaxError) return undefined
    throw e
  }
}
