import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { itemTexts } from "../../../pipeline/sources/lib/itemTexts.js"

/** What the fetcher hands over: the text and JSON.parse of it. */
const parsedFrom = (text: string) => ({ text, payload: JSON.parse(text) as unknown })

const at = (v: unknown, path: ReadonlyArray<string>) =>
  path.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], v)

const textsOf = (text: string, path: ReadonlyArray<string>) => {
  const { payload } = parsedFrom(text)
  return itemTexts(text, payload, at(payload, path) as ReadonlyArray<unknown>)
}

const layouts = [
  (v: unknown) => JSON.stringify(v),
  (v: unknown) => JSON.stringify(v, null, 2),
  (v: unknown) => JSON.stringify(v, null, "\t"),
  // raw newlines only ever sit between tokens (inside strings they are escaped), so this keeps the value
  (v: unknown) => JSON.stringify(v, null, 1).replace(/\n/g, "\r\n")
]

describe("itemTexts: the text each record arrived as", () => {
  it("gives, for any array up to four keys deep in any layout, each element's own text", () => {
    const key = fc.oneof(fc.string(), fc.constantFrom("features", "data", 'a"b', "back\\slash", "x,]}", "é✓"))
    fc.assert(
      fc.property(
        fc.array(key, { maxLength: 4 }),
        fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 8 }),
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        fc.nat(layouts.length - 1),
        (path, items, siblings, layout) => {
          const payload = path.reduceRight<unknown>((inner, k) => ({ ...siblings, [k]: inner }), items)
          const text = layouts[layout]!(payload)
          const parsed = JSON.parse(text) as unknown
          const got = at(parsed, path) as ReadonlyArray<unknown>
          const texts = itemTexts(text, parsed, got)
          expect(texts).toBeDefined()
          expect(texts!.map((t) => JSON.parse(t) as unknown)).toEqual(got)
          for (const t of texts!) expect(t).toBe(t.trim())
        }
      ),
      { numRuns: 500 }
    )
  })

  it("reads a root array with odd spacing, strings holding delimiters and escaped quotes, and every scalar", () => {
    const text = ` [ 1 ,{"a":"x,]}\\"{["} ,\r\n"s\\\\", "q\\\\\\"q",-2.5e3,true,false,null,[],{},[[]] ]`
    expect(textsOf(text, [])).toEqual([
      "1",
      `{"a":"x,]}\\"{["}`,
      `"s\\\\"`,
      `"q\\\\\\"q"`,
      "-2.5e3",
      "true",
      "false",
      "null",
      "[]",
      "{}",
      "[[]]"
    ])
  })

  it("follows a repeated key to its last value, as JSON.parse does", () => {
    expect(textsOf(`{"features":[{"id":1}],"features":[{"id":2},{"id":3}]}`, ["features"])).toEqual([
      `{"id":2}`,
      `{"id":3}`
    ])
    expect(textsOf(`{"a":{"f":[1,2]},"a":{"g":[3,4]}}`, ["a", "g"])).toEqual(["3", "4"])
    expect(textsOf(`{"a":{"f":[1]},"b":0,"a":{"f":[2]}}`, ["a", "f"])).toEqual(["2"])
    expect(textsOf(`{"a":5,"a":{"f":"x","f":[3]},"z":[]}`, ["a", "f"])).toEqual(["3"])
  })

  it("matches keys written with escapes", () => {
    expect(textsOf(`{"feat\\u0075res":[{"id":"x"}]}`, ["features"])).toEqual([`{"id":"x"}`])
  })

  it("gives nothing when the items are not the payload's own array, so the caller serializes them", () => {
    const { text, payload } = parsedFrom(`{"features":[{"id":1},{"id":2}]}`)
    const features = (payload as { features: Array<unknown> }).features
    expect(itemTexts(text, payload, structuredClone(features))).toBeUndefined() // copies, as a join would make
    expect(itemTexts(text, payload, features.slice(1))).toBeUndefined() // a filtered list
    expect(itemTexts(text, payload, [])).toBeUndefined()
    expect(itemTexts("<xml/>", "<xml/>", features)).toBeUndefined()
    const deep = parsedFrom(`{"a":{"b":{"c":{"d":{"e":[{"id":1}]}}}}}`)
    expect(
      itemTexts(deep.text, deep.payload, at(deep.payload, ["a", "b", "c", "d", "e"]) as Array<unknown>)
    ).toBeUndefined()
  })

  it("gives nothing, rather than misplaced texts, when the text is not the payload's", () => {
    const { payload } = parsedFrom(`{"features":[{"id":1},{"id":2}]}`)
    const features = (payload as { features: Array<unknown> }).features
    expect(itemTexts(`{"features":[{"id":1}]}`, payload, features)).toBeUndefined()
    expect(itemTexts(`{"features":[{"id":1},`, payload, features)).toBeUndefined()
    expect(itemTexts(`{"other":[]}`, payload, features)).toBeUndefined()
  })
})
